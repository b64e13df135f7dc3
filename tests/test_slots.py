"""Gold slots with optional units (SPEC §1): parsing, form listing and the DP matcher.

The hash index lists a slot's forms with ``SlotPattern.forms`` and falls back to the dynamic
programme ``SlotPattern.matches`` when there are too many: both must agree with the plain
definition (every keep/drop combination of the optional units, tokens joined by single
spaces), which the property tests below enumerate by brute force.
"""

from __future__ import annotations

import itertools

from hypothesis import example, given, settings
from hypothesis import strategies as st

from benchie_cli.slots import (
    BRACKET_SPACING,
    EMPTY_BRACKETS,
    LONE_BRACKET,
    NESTED_BRACKET,
    SlotPattern,
    Unit,
    parse_slot,
)

# --------------------------------------------------------------------------- parse_slot


def units_of(text: str) -> list[tuple[tuple[str, ...], bool]]:
    """The parsed units as plain tuples, for readable assertions."""
    pattern, _ = parse_slot(text)
    return [(u.tokens, u.optional) for u in pattern.units]


def codes_of(text: str) -> list[str]:
    _, issues = parse_slot(text)
    return [i.code for i in issues]


def test_plain_slot_is_one_mandatory_unit() -> None:
    """No bracket: every token mandatory, one form, no issue."""
    assert units_of("Prime Minister") == [(("Prime", "Minister"), False)]
    assert codes_of("Prime Minister") == []


def test_independent_optional_units_and_multi_token_unit() -> None:
    """`[the] [first]` are two units; `[of Australia]` is ONE unit (both tokens go together)."""
    text = "[the] [first] Prime Minister [of Australia]"
    assert units_of(text) == [
        (("the",), True),
        (("first",), True),
        (("Prime", "Minister"), False),
        (("of", "Australia"), True),
    ]
    assert codes_of(text) == []
    pattern, _ = parse_slot(text)
    assert pattern.forms(64) == {
        "the first Prime Minister of Australia",
        "the first Prime Minister",
        "the Prime Minister of Australia",
        "the Prime Minister",
        "first Prime Minister of Australia",
        "first Prime Minister",
        "Prime Minister of Australia",
        "Prime Minister",
    }
    # Half a unit is not a form: "of" without "Australia".
    assert not pattern.matches(["Prime", "Minister", "of"])
    assert not pattern.matches(["Prime", "Minister", "Australia"])


def test_spec_example_object() -> None:
    """SPEC §1: `[the] Prime Minister` accepts "the Prime Minister" and "Prime Minister"."""
    pattern, _ = parse_slot("[the] Prime Minister")
    assert pattern.forms(64) == {"the Prime Minister", "Prime Minister"}
    assert pattern.mandatory_tokens() == ("Prime", "Minister")
    assert pattern.full_tokens() == ("the", "Prime", "Minister")


def test_spaces_inside_brackets_do_not_matter() -> None:
    """`[ of  Australia ]` is the same unit as `[of Australia]`."""
    assert units_of("x [ of  Australia ]") == units_of("x [of Australia]")


def test_bracket_is_a_token_boundary() -> None:
    """The gold is tokenised, so a bracket glued to a token still separates tokens:
    `[``]A` is the optional token `` followed by the mandatory A."""
    assert units_of("[``]A") == [(("``",), True), (("A",), False)]
    pattern, issues = parse_slot("[``]A")
    assert pattern.forms(64) == {"`` A", "A"}
    # Reported as a spacing warning, never as a broken bracket.
    assert [i.code for i in issues] == [BRACKET_SPACING]


def test_glued_brackets_on_both_sides() -> None:
    """`A[b]c` reads as A, optional b, c."""
    assert units_of("A[b]c") == [(("A",), False), (("b",), True), (("c",), False)]
    assert set(codes_of("A[b]c")) == {BRACKET_SPACING}


def test_adjacent_groups_without_space() -> None:
    """`[a][b]` is two units; brackets touching brackets are not a spacing problem."""
    assert units_of("[a][b] c") == [(("a",), True), (("b",), True), (("c",), False)]
    assert codes_of("[a][b] c") == []


def test_lone_closing_bracket_is_dropped() -> None:
    """Upstream defect `unserem] Ballon`: the bracket goes, its tokens stay mandatory."""
    assert units_of("unserem] Ballon") == [(("unserem", "Ballon"), False)]
    assert codes_of("unserem] Ballon") == [LONE_BRACKET]


def test_lone_opening_bracket_is_dropped() -> None:
    """An unclosed `[` is dropped too; the preceding well-formed group stays optional."""
    assert units_of("[the] house [of cards") == [
        (("the",), True),
        (("house", "of", "cards"), False),
    ]
    assert codes_of("[the] house [of cards") == [LONE_BRACKET]


def test_lone_bracket_message_names_the_column() -> None:
    """Validate reports the line; the message must say where the bracket is."""
    _, issues = parse_slot("unserem] Ballon")
    assert "column 8" in issues[0].message


def test_extra_closing_bracket_after_a_group() -> None:
    """`x [a]] b`: the second `]` is lone and dropped; `[a]` stays an optional unit."""
    pattern, issues = parse_slot("x [a]] b")
    assert pattern.forms(64) == {"x a b", "x b"}
    assert [i.code for i in issues] == [LONE_BRACKET]


def test_extra_opening_bracket_before_a_group() -> None:
    """`[ [a] b` mirrors `x [a]] b`: the first `[` never closes, so it is the lone bracket and
    is dropped (docs/scoring.md: "dropped and the tokens it touched stay mandatory"). What
    remains is `[a] b`; `[a]` is not nested in any group, so it stays optional and no
    nested-bracket issue is due."""
    pattern, issues = parse_slot("[ [a] b")
    assert [i.code for i in issues] == [LONE_BRACKET]
    assert pattern.forms(64) == {"a b", "b"}


def test_nested_brackets_outer_group_is_the_unit() -> None:
    """`[a [b] c] d`: the inner brackets are dropped, `a b c` is one optional unit."""
    assert units_of("[a [b] c] d") == [(("a", "b", "c"), True), (("d",), False)]
    assert codes_of("[a [b] c] d") == [NESTED_BRACKET]
    pattern, _ = parse_slot("[a [b] c] d")
    assert pattern.forms(64) == {"a b c d", "d"}


def test_empty_brackets_reported_and_ignored() -> None:
    """`[]` holds no token: it adds no unit and is reported."""
    assert units_of("x [] y") == [(("x", "y"), False)]
    assert codes_of("x [] y") == [EMPTY_BRACKETS]
    assert codes_of("x [ ] y") == [EMPTY_BRACKETS]
    assert units_of("[]") == []
    assert codes_of("[]") == [EMPTY_BRACKETS]


def test_empty_brackets_alongside_a_lone_one() -> None:
    """Both defects on one slot are reported (the defective-slot code path)."""
    pattern, _ = parse_slot("x [] y [z")
    assert pattern.forms(64) == {"x y z"}
    assert sorted(codes_of("x [] y [z")) == sorted([EMPTY_BRACKETS, LONE_BRACKET])


def test_empty_slot_has_the_empty_form() -> None:
    pattern, issues = parse_slot("   ")
    assert pattern.units == ()
    assert issues == []
    assert pattern.forms(64) == {""}
    assert pattern.matches(())
    assert not pattern.matches(("a",))


# --------------------------------------------------------------------------- properties

ALPHABET = ("a", "b", "c")

#: A unit as generated: (tokens, optional).
GenUnit = tuple[tuple[str, ...], bool]

gen_units = st.lists(
    st.tuples(
        st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=3).map(tuple), st.booleans()
    ),
    max_size=8,
)


def brute_forms(units: list[GenUnit]) -> set[str]:
    """Every keep/drop combination of the optional units, tokens joined by single spaces."""
    optional = [i for i, (_, opt) in enumerate(units) if opt]
    out: set[str] = set()
    for keep in itertools.product((False, True), repeat=len(optional)):
        kept = dict(zip(optional, keep, strict=True))
        tokens = [t for i, (toks, opt) in enumerate(units) if not opt or kept[i] for t in toks]
        out.add(" ".join(tokens))
    return out


@st.composite
def slot_texts(draw: st.DrawFn) -> tuple[list[GenUnit], str, bool]:
    """A unit list and a text for it: optional units in brackets, random spacing, and
    brackets sometimes glued to neighbouring tokens. Also says whether any bracket touches
    a token (which parse_slot reports as a spacing warning)."""
    units = draw(gen_units)
    spaces = st.sampled_from([" ", "  ", "\t"])
    pieces: list[str] = []
    for tokens, optional in units:
        inner = draw(spaces).join(tokens)
        if optional:
            pad_l = draw(st.sampled_from(["", " "]))
            pad_r = draw(st.sampled_from(["", " "]))
            pieces.append(f"[{pad_l}{inner}{pad_r}]")
        else:
            pieces.append(inner)
    text = draw(st.sampled_from(["", " "]))
    glued = False
    for k, piece in enumerate(pieces):
        if k:
            bracket_edge = pieces[k - 1].endswith("]") or piece.startswith("[")
            sep = draw(st.sampled_from(["", " ", "  "])) if bracket_edge else draw(spaces)
            if sep == "" and not (pieces[k - 1].endswith("]") and piece.startswith("[")):
                glued = True
            text += sep
        text += piece
    text += draw(st.sampled_from(["", " "]))
    return units, text, glued


@given(slot_texts())
@example(([(("a",), True), (("a",), True), (("a",), False)], "[a] [a] a", False))
@example(([(("a", "b"), True), (("a",), False), (("b",), True)], "[a b]a[b]", True))
@settings(max_examples=400, deadline=None)
def test_forms_equal_brute_force(case: tuple[list[GenUnit], str, bool]) -> None:
    """forms(limit) lists exactly the keep/drop combinations, whatever the spacing."""
    units, text, _ = case
    pattern, _ = parse_slot(text)
    assert pattern.forms(1 << 20) == brute_forms(units)


@given(slot_texts())
@settings(max_examples=300, deadline=None)
def test_well_formed_text_raises_only_spacing_issues(
    case: tuple[list[GenUnit], str, bool],
) -> None:
    """Balanced brackets are never lone or nested; a glued bracket is only a warning."""
    _, text, glued = case
    _, issues = parse_slot(text)
    codes = {i.code for i in issues}
    assert codes <= {BRACKET_SPACING}
    assert (BRACKET_SPACING in codes) == glued


@given(slot_texts(), st.data())
@settings(max_examples=200, deadline=None)
def test_matches_iff_brute_force_form(
    case: tuple[list[GenUnit], str, bool], data: st.DataObject
) -> None:
    """The DP accepts every form and nothing else, including near-misses drawn from the
    same three-letter alphabet (dropped, repeated or swapped tokens)."""
    units, text, _ = case
    pattern, _ = parse_slot(text)
    expected = brute_forms(units)
    for form in expected:
        assert pattern.matches(form.split()), form
        assert pattern.matches(tuple(form.split())), form
    for _ in range(10):
        candidate = data.draw(st.lists(st.sampled_from(ALPHABET), max_size=10))
        assert pattern.matches(candidate) == (" ".join(candidate) in expected), candidate
    if expected - {""}:
        form = data.draw(st.sampled_from(sorted(expected - {""}))).split()
        k = data.draw(st.integers(0, len(form) - 1))
        for near in (
            form[:k] + form[k + 1 :],
            [*form[:k], form[k], *form[k:]],
            [*form[:k], ALPHABET[(ALPHABET.index(form[k]) + 1) % 3], *form[k + 1 :]],
        ):
            assert pattern.matches(near) == (" ".join(near) in expected), near


@given(slot_texts())
@settings(max_examples=300, deadline=None)
def test_mandatory_tokens_is_the_all_dropped_form(case: tuple[list[GenUnit], str, bool]) -> None:
    """Facet minimal's form: every optional unit dropped; full_tokens keeps every unit."""
    units, text, _ = case
    pattern, _ = parse_slot(text)
    assert pattern.mandatory_tokens() == tuple(t for toks, opt in units if not opt for t in toks)
    assert pattern.full_tokens() == tuple(t for toks, _ in units for t in toks)
    assert " ".join(pattern.mandatory_tokens()) in brute_forms(units)
    assert pattern.optional_count == sum(1 for _, opt in units if opt)


@given(slot_texts())
@settings(max_examples=200, deadline=None)
def test_forms_returns_none_above_the_limit(case: tuple[list[GenUnit], str, bool]) -> None:
    """forms(limit) lists when 2**optional <= limit, else refuses (the DP takes over)."""
    units, text, _ = case
    pattern, _ = parse_slot(text)
    k = sum(1 for _, opt in units if opt)
    assert pattern.forms(1 << k) == brute_forms(units)
    if k:
        assert pattern.forms((1 << k) - 1) is None


@st.composite
def with_lone_bracket(draw: st.DrawFn, bracket: str) -> tuple[str, str]:
    """A well-formed slot text and the same text with one lone ``bracket`` inserted,
    space-separated, between two units (outside every group)."""
    units = draw(gen_units)
    pieces = [f"[{' '.join(t)}]" if opt else " ".join(t) for t, opt in units]
    k = draw(st.integers(0, len(pieces)))
    return " ".join(pieces), " ".join([*pieces[:k], bracket, *pieces[k:]])


@given(with_lone_bracket("]"))
@settings(max_examples=300, deadline=None)
def test_lone_closing_bracket_changes_no_form(case: tuple[str, str]) -> None:
    """Dropping a lone `]` leaves the slot as if it had never been there."""
    clean, defective = case
    pattern, issues = parse_slot(defective)
    assert pattern.forms(1 << 20) == parse_slot(clean)[0].forms(1 << 20)
    assert [i.code for i in issues] == [LONE_BRACKET]


@given(with_lone_bracket("["))
@example(("[a] b", "[ [a] b"))
@settings(max_examples=300, deadline=None)
def test_lone_opening_bracket_changes_no_form(case: tuple[str, str]) -> None:
    """Dropping a lone `[` leaves the slot as if it had never been there: the groups after
    it are not nested in anything (it never closes), so they stay optional units."""
    clean, defective = case
    pattern, issues = parse_slot(defective)
    assert pattern.forms(1 << 20) == parse_slot(clean)[0].forms(1 << 20)
    assert [i.code for i in issues] == [LONE_BRACKET]


# --------------------------------------------------------------------------- large slots


def test_forty_optional_units_go_through_the_dp() -> None:
    """2**40 forms cannot be listed: forms(64) refuses, and matches() still decides exactly."""
    names = [f"t{i}" for i in range(40)]
    pattern, issues = parse_slot(" ".join(f"[{n}]" for n in names) + " end")
    assert issues == []
    assert pattern.optional_count == 40
    assert pattern.forms(64) is None
    every_other = [*names[::2], "end"]
    assert pattern.matches(every_other)
    assert pattern.matches([*names, "end"])
    assert pattern.matches(["end"])
    reordered = [names[2], names[0], *names[4::2], "end"]
    assert not pattern.matches(reordered)
    assert not pattern.matches(names[::2])  # the mandatory "end" is missing
    assert not pattern.matches([*names[::2], "end", "end"])
    assert not pattern.matches([names[0], names[0], "end"])  # a unit used twice


def test_forty_identical_optional_units() -> None:
    """Forty `[a]` then `b`: a^k b matches for k <= 40 only; heavy collisions for the DP."""
    pattern, _ = parse_slot("[a] " * 40 + "b")
    assert pattern.forms(64) is None
    for k in (0, 1, 17, 39, 40):
        assert pattern.matches(["a"] * k + ["b"]), k
    assert not pattern.matches(["a"] * 41 + ["b"])
    assert not pattern.matches(["a"] * 3)
    assert not pattern.matches(["b", "a"])


def test_forty_two_token_units_cannot_be_split() -> None:
    """Forty `[a b]`: "a b a b" matches, "a b a" and "b a" do not (units are atomic)."""
    pattern, _ = parse_slot(" ".join(["[a b]"] * 40))
    assert pattern.forms(64) is None
    assert pattern.matches(["a", "b", "a", "b"])
    assert pattern.matches([])
    assert not pattern.matches(["a", "b", "a"])
    assert not pattern.matches(["b", "a"])


def test_hand_built_pattern_equals_parsed() -> None:
    """SlotPattern equality and hashing follow the units (the loader caches on them)."""
    built = SlotPattern((Unit(("the",), True), Unit(("house",), False)))
    parsed, _ = parse_slot("[the] house")
    assert built == parsed
    assert hash(built) == hash(parsed)
    assert built != parse_slot("the house")[0]
