"""Gold slots with optional units: parsing, exact matching, and bounded form listing.

A gold slot such as ``[the] [first] Prime Minister [of Australia]`` stands for every string
obtained by keeping or dropping each bracketed unit. Listing those forms costs 2**k for k
units, so matching never depends on it: :meth:`SlotPattern.matches` runs a dynamic programme
over token positions (O(units x tokens)), and :meth:`SlotPattern.forms` lists forms only for
the hash index, and only when there are at most ``limit`` of them.

Brackets are token boundaries (``[``\\`\\`]A`` is the optional token ````` then ``A``), as the
gold is tokenised. Upstream has a few defects; the loader recovers as docs/scoring.md
documents: a bracket without its partner is dropped (the tokens it touched stay mandatory),
and brackets nested inside a group are dropped (the outer group is the unit). Each is
reported as an issue.

Issues stay small whatever the slot: a message quotes at most ``QUOTE_LIMIT`` characters of
the slot (see :func:`quote`), and a slot reports at most ``ISSUES_SHOWN`` lone brackets and
``ISSUES_SHOWN`` brackets touching a token, then one issue that counts the rest. A slot of
thousands of lone ``[`` would otherwise produce thousands of issues that each quote the
whole slot: output quadratic in the line's length (800 MB for a 40 KB line).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import product
from math import prod

from benchie_cli.records import Record

#: Issue codes a slot can raise; the validator turns them into diagnostics.
LONE_BRACKET = "lone-bracket"
NESTED_BRACKET = "nested-bracket"
EMPTY_BRACKETS = "empty-brackets"
BRACKET_SPACING = "bracket-spacing"

#: Characters of a slot (or line) that a diagnostic quotes. The real gold's slots are at most
#: 263 characters; 120 shows a whole clause, enough to find the slot on its line.
QUOTE_LIMIT = 120

#: Issues of one kind (lone bracket, bracket touching a token) reported one by one per slot;
#: the rest are counted in one more issue. The real gold has at most 2 of a kind in a slot.
ISSUES_SHOWN = 3


def quote(text: str) -> str:
    """``text`` quoted for a message: its ``repr``, cut after ``QUOTE_LIMIT`` characters.

    A cut quote is followed by ``…`` and the full length, outside the quotes, so it cannot be
    mistaken for the text itself: ``'[ [ [ '… (40000 characters)``.
    """
    if len(text) <= QUOTE_LIMIT:
        return repr(text)
    return f"{text[:QUOTE_LIMIT]!r}… ({len(text)} characters)"


class Unit(Record):
    """Consecutive tokens that are kept or dropped together (``optional``) or always kept.

    A NamedTuple rather than a dataclass: the loader builds tens of thousands per gold file,
    and tuple construction is several times cheaper.
    """

    tokens: tuple[str, ...]
    optional: bool


class SlotIssue(Record):
    code: str
    message: str


class SlotPattern:
    """One gold slot: a sequence of units. Tokens are joined by single spaces in every form."""

    __slots__ = ("units",)

    def __init__(self, units: tuple[Unit, ...]) -> None:
        self.units = units

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SlotPattern) and other.units == self.units

    def __hash__(self) -> int:
        return hash(self.units)

    def __repr__(self) -> str:
        return f"SlotPattern({self.units!r})"

    @property
    def optional_count(self) -> int:
        return sum(1 for u in self.units if u.optional)

    def mandatory_tokens(self) -> tuple[str, ...]:
        """The minimal form (facet ``minimal``): every optional unit dropped."""
        return tuple(t for u in self.units if not u.optional for t in u.tokens)

    def full_tokens(self) -> tuple[str, ...]:
        """Every unit kept: the form the annotator wrote, without brackets."""
        return tuple(t for u in self.units for t in u.tokens)

    def text(self) -> str:
        """The slot as the gold writes it, optional units in brackets (for reports)."""
        return " ".join(
            f"[{' '.join(u.tokens)}]" if u.optional else " ".join(u.tokens) for u in self.units
        )

    def matches(self, tokens: tuple[str, ...] | list[str]) -> bool:
        """Whether ``tokens`` is a form of this slot, in O(units x len(tokens)).

        ``reach`` is a bit set of the token positions at which the units read so far can
        end; an optional unit keeps every position and may also advance. An extraction longer
        than the slot's full form is refused before the programme runs, so its cost is bounded
        by the slot (units x units), never by the extraction's length.
        """
        n = len(tokens)
        if n > sum(len(u.tokens) for u in self.units):
            return False
        reach = 1  # position 0
        for unit in self.units:
            width = len(unit.tokens)
            advanced = 0
            bits = reach
            while bits:
                low = bits & -bits
                pos = low.bit_length() - 1
                bits ^= low
                if pos + width <= n and tuple(tokens[pos : pos + width]) == unit.tokens:
                    advanced |= 1 << (pos + width)
            reach = (reach | advanced) if unit.optional else advanced
            if not reach:
                return False
        return bool(reach >> n & 1)

    def forms(self, limit: int) -> set[str] | None:
        """All forms as space-joined strings, or ``None`` when there would be more than
        ``limit`` (the caller then falls back to :meth:`matches`)."""
        if 1 << self.optional_count > limit:
            return None
        partial: list[tuple[str, ...]] = [()]
        for unit in self.units:
            if unit.optional:
                partial = partial + [p + unit.tokens for p in partial]
            else:
                partial = [p + unit.tokens for p in partial]
        return {" ".join(p) for p in partial}


def product_forms(patterns: tuple[SlotPattern, ...], limit: int) -> list[tuple[str, ...]] | None:
    """Every combination of the slots' forms (a triple's forms), in sorted order, or
    ``None`` when there would be more than ``limit``. For statistics and validation only:
    matching never lists forms."""
    slot_forms = [p.forms(limit) for p in patterns]
    sizes = [len(f) for f in slot_forms if f is not None]
    if len(sizes) < len(patterns) or prod(sizes) > limit:
        return None
    return list(product(*[sorted(f) for f in slot_forms if f is not None]))


def concat_patterns(patterns: tuple[SlotPattern, ...]) -> SlotPattern:
    """The slots of a triple read as one sequence (facet ``concat``)."""
    return SlotPattern(tuple(u for p in patterns for u in p.units))


_GROUP = re.compile(r"\[([^\[\]]*)\]")
_EMPTY_GROUP = re.compile(r"\[\s*\]")
_PIECES = re.compile(r"\[|\]|[^\s\[\]]+")


def _pair_brackets(pieces: list[re.Match[str]]) -> tuple[dict[int, int], set[int], set[int]]:
    """Match bracket pieces: ``(open -> close of outer groups, lone ones, nested ones)``.

    Two passes: the first finds the brackets without a partner, the second pairs the rest,
    so that a lone ``[`` never makes the group after it look nested (``[ [a] b`` is ``[a] b``).
    """
    lone: set[int] = set()
    stack: list[int] = []
    for i, piece in enumerate(pieces):
        ch = piece.group()
        if ch == "[":
            stack.append(i)
        elif ch == "]":
            if stack:
                stack.pop()
            else:
                lone.add(i)
    lone.update(stack)
    pairs: dict[int, int] = {}
    nested: set[int] = set()
    stack = []
    for i, piece in enumerate(pieces):
        if i in lone:
            continue
        ch = piece.group()
        if ch == "[":
            stack.append(i)
        elif ch == "]":
            start = stack.pop()
            if stack:  # closes an inner group: both of its brackets are dropped
                nested.update((start, i))
            else:
                pairs[start] = i
    return pairs, lone, nested


def parse_slot(text: str) -> tuple[SlotPattern, list[SlotIssue]]:
    """Parse one slot's text into units, with the issues found on the way."""
    if "[" not in text and "]" not in text:  # most slots: one mandatory unit
        tokens = tuple(text.split())
        return SlotPattern((Unit(tokens, False),) if tokens else ()), []
    parts = _GROUP.split(text)  # mandatory, group, mandatory, group, ..., mandatory
    if not any("[" in part or "]" in part for part in parts[::2]):
        return _from_parts(parts), _spacing_issues(text)  # well-formed: no lone or nested
    return _parse_defective(text)


def _from_parts(parts: list[str]) -> SlotPattern:
    units: list[Unit] = []
    mandatory: list[str] = []
    for i, part in enumerate(parts):
        tokens = part.split()
        if not i % 2:
            mandatory.extend(tokens)
        elif tokens:  # an empty group "[]" is reported by _spacing_issues' caller
            if mandatory:
                units.append(Unit(tuple(mandatory), False))
                mandatory = []
            units.append(Unit(tuple(tokens), True))
    if mandatory:
        units.append(Unit(tuple(mandatory), False))
    return SlotPattern(tuple(units))


def _first_few(
    code: str, columns: list[int], describe: Callable[[int], str], rest: str, text: str
) -> list[SlotIssue]:
    """One issue per column for the first ``ISSUES_SHOWN`` columns, then one that counts the
    others (``rest`` says what they do), so a slot's issues stay few whatever its length."""
    issues = [SlotIssue(code, f"{describe(c)}: {quote(text)}") for c in columns[:ISSUES_SHOWN]]
    more = len(columns) - ISSUES_SHOWN
    if more > 0:
        last = columns[ISSUES_SHOWN - 1]
        issues.append(
            SlotIssue(code, f"{more} more brackets after column {last} {rest}: {quote(text)}")
        )
    return issues


def _touching_issues(columns: list[int], text: str) -> list[SlotIssue]:
    return _first_few(
        BRACKET_SPACING,
        columns,
        lambda c: f"bracket at column {c} touches a token; read as a token boundary",
        "touch a token; read as token boundaries",
        text,
    )


def _spacing_issues(text: str) -> list[SlotIssue]:
    issues = _touching_issues([touch.start() + 1 for touch in _TOUCHING.finditer(text)], text)
    if _EMPTY_GROUP.search(text):
        issues.append(SlotIssue(EMPTY_BRACKETS, f"empty brackets: {quote(text)}"))
    return issues


def _parse_defective(text: str) -> tuple[SlotPattern, list[SlotIssue]]:
    """The general path, for slots with lone or nested brackets (a handful upstream)."""
    pieces = list(_PIECES.finditer(text))
    pairs, lone, nested = _pair_brackets(pieces)
    issues = _first_few(
        LONE_BRACKET,
        [pieces[i].start() + 1 for i in sorted(lone)],
        lambda c: (
            f"'{text[c - 1]}' at column {c} has no partner; dropped, its tokens stay mandatory"
        ),
        "have no partner; dropped likewise",
        text,
    )
    if nested:
        issues.append(
            SlotIssue(
                NESTED_BRACKET, f"nested brackets; the outer group is one unit: {quote(text)}"
            )
        )
    # Only the brackets that delimit a group can touch a token; lone and nested ones are
    # dropped and reported above.
    used = {pieces[i].start() for i in (*pairs, *pairs.values())}
    issues.extend(
        _touching_issues(
            [m.start() + 1 for m in _TOUCHING.finditer(text) if m.start() in used], text
        )
    )
    units: list[Unit] = []
    current: list[str] = []
    group_end = -1
    empty_group = False
    for i, piece in enumerate(pieces):
        if i in lone or i in nested:
            continue
        word = piece.group()
        if i in pairs:
            if current:
                units.append(Unit(tuple(current), False))
            current, group_end = [], pairs[i]
        elif i == group_end:
            if current:
                units.append(Unit(tuple(current), True))
            else:
                empty_group = True
            current, group_end = [], -1
        else:
            current.append(word)
    if current:
        units.append(Unit(tuple(current), False))
    if empty_group:  # once per slot, as on the well-formed path
        issues.append(SlotIssue(EMPTY_BRACKETS, f"empty brackets: {quote(text)}"))
    return SlotPattern(tuple(units)), issues


# A bracket glued to a token: ``x[`` or ``]x``.
_TOUCHING = re.compile(r"(?<=[^\s\[\]])\[|\](?=[^\s\[\]])")
