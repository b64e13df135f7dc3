"""How the reading notes count a file's lines (``benchmarks/corpus.py``): counted in C, the
same counts as the lines give one by one."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from benchie_cli.benchmarks.corpus import PER_LINE, skipped_lines

# Bytes made mostly of what decides a line: its breaks, blanks, and a letter.
_LINES = st.lists(st.sampled_from([b"\n", b"\r", b"\r\n", b" ", b"\t", b"\x0b", b"a", b"\x85"]))


def _dropped(data: bytes, fmt: str, extractions: int) -> int:
    """The lines that give no extraction, counted as the note counts them, line by line."""
    return sum(1 for line in data.splitlines() if line.strip()) - PER_LINE[fmt] - extractions


@given(_LINES.map(b"".join), st.integers(0, 12), st.sampled_from(["openie4", "carb"]))
@example(b"\r\n \t\ra\x0b\n", 0, "openie4")
def test_a_note_only_where_lines_were_dropped(data: bytes, extractions: int, fmt: str) -> None:
    note = skipped_lines(data, fmt, extractions)
    dropped = _dropped(data, fmt, extractions)
    assert (note is not None) == (dropped > 0)
    if note is not None:
        assert note.startswith(f"{dropped:,} of its ")


def test_the_count_by_hand() -> None:
    """Three lines (one of them blank), two extractions: one line dropped."""
    data = b"x\ty\r\n \t\r\nz"
    assert skipped_lines(data, "openie4", 2) is None  # (the blank line is not a line dropped)
    assert skipped_lines(data, "openie4", 1) == (
        "1 of its 2 lines give no extraction: the reader skips them, as the original scorer's "
        "does (a slot empty or missing)"
    )


# The same with what may stand for a blank in text but not in bytes (NBSP, ideographic space)
# and a BOM, which the decoded text loses.
_TEXT_LINES = st.lists(
    st.sampled_from(
        [b"\n", b"\r", b"\r\n", b" ", b"\t", b"a", b"\xc2\xa0", b"\xe3\x80\x80", b"\xef\xbb\xbf"]
    )
)


@given(_TEXT_LINES.map(b"".join), st.integers(0, 12))
@example(b"\xef\xbb\xbf\nx\n", 0)  # (a BOM alone on the first line: a line in bytes)
@example(b"\xc2\xa0\n \t\n", 0)  # (NBSP: not blank as bytes.strip strips)
def test_the_texts_lines_count_as_the_bytes_lines(data: bytes, extractions: int) -> None:
    """CaRB's run passes the decoded text's lines it split already, where they are the bytes'
    lines (no BOM; no other break, which these bytes never hold): the note is the same."""
    from benchie_cli.textio import BOM, decode_text

    text = decode_text(data, "f")
    lines = text.splitlines() if not data.startswith(BOM) else None
    assert skipped_lines(data, "openie4", extractions, lines) == skipped_lines(
        data, "openie4", extractions
    )
