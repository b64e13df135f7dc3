"""``benchie strip-implicit``: split a submission into explicit (KEPT) and implicit (REMOVED).

SPEC §5: an extraction is implicit when one of its tokens (after Unicode case folding: a run of
letters, a run of digits, or any other single non-space character) is not among its sentence's
tokens. KEPT must hold the explicit lines unchanged and in order, REMOVED the others as
``LINE<TAB>TOKENS<TAB>original line``. Real upstream outputs are used, with lines injected.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.conftest import RunCli, example

UPSTREAM = [
    ("en", s)
    for s in ("clausie", "minie", "stanford", "openie6", "roi_t", "roi_n", "naive_oie", "m2oie_en")
] + [("de", "m2oie_de"), ("zh", "m2oie_zh")]

# (insert after this line of clausie.tsv, injected line, tokens missing by default,
#  tokens missing with --case-sensitive); an empty token list means explicit.
INJECTED: list[tuple[int, bytes, list[str], list[str]]] = [
    # A token that is not in sentence 1.
    (3, b"1\tHe\tserved as\tthe first Prime Minister of Narnia", ["narnia"], ["Narnia"]),
    # Case only: explicit after case folding, implicit when compared case-sensitively.
    (
        10,
        b"1\tHE\tSERVED AS\tthe first prime minister",
        [],
        ["HE", "SERVED", "AS", "prime", "minister"],
    ),
    # Sentence 103 has "M8.7sp": M|8|.|7|sp, so a re-tokenised "M8 .7 sp" stays explicit.
    (
        200,
        b"103\tPremark International Inc.\tpeddles\tthe M8 .7 sp Electronic Cycling Simulator",
        [],
        [],
    ),
    # ... but "sport" is no token of it ("simulator" is, after folding).
    (
        201,
        b"103\tPremark International Inc.\tpeddles\tthe M8.7 sport simulator",
        ["sport"],
        ["sport", "simulator"],
    ),
    # An n-ary line: the implicit token is in the fifth column.
    (400, b"1\tHe\tbecame\ta founding\tjudge", ["judge"], ["judge"]),
    # The last line, after the original last line.
    (695, b"103\tPremark\tsells\tM8.7sp", ["sells"], ["sells"]),
]


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def injected_file(tmp_path: Path) -> tuple[Path, list[bytes], dict[int, int]]:
    """clausie.tsv with INJECTED lines; returns the file, its lines, and the new line number
    of each injected entry (keyed by its index in INJECTED)."""
    original = example("en", "clausie").read_bytes().split(b"\n")
    assert len(original) == 695
    lines: list[bytes] = []
    where: dict[int, int] = {}
    after = {n: i for i, (n, *_rest) in enumerate(INJECTED)}
    for n, line in enumerate(original, 1):
        lines.append(line)
        if n in after:
            lines.append(INJECTED[after[n]][1])
            where[after[n]] = len(lines)
    return write(tmp_path / "clausie_plus.tsv", b"\n".join(lines) + b"\n"), lines, where


def expected_split(
    lines: list[bytes], where: dict[int, int], case_sensitive: bool
) -> tuple[bytes, bytes]:
    """KEPT and REMOVED as the issue specifies them, for the injected lines only."""
    removed_at = {
        where[i]: (entry[3] if case_sensitive else entry[2])
        for i, entry in enumerate(INJECTED)
        if (entry[3] if case_sensitive else entry[2])
    }
    kept = b"".join(line + b"\n" for n, line in enumerate(lines, 1) if n not in removed_at)
    removed = b"".join(
        f"{n}\t{' '.join(removed_at[n])}\t".encode() + lines[n - 1] + b"\n"
        for n in sorted(removed_at)
    )
    return kept, removed


@pytest.mark.parametrize(("lang", "system"), UPSTREAM)
def test_unmodified_upstream_is_kept_byte_for_byte(
    cli: RunCli, tmp_path: Path, lang: str, system: str
) -> None:
    """Upstream outputs hold no implicit extraction: KEPT is the input itself, byte for byte,
    whether or not the file ends with a newline, and REMOVED is empty."""
    src = example(lang, system)
    kept, removed = tmp_path / "kept.tsv", tmp_path / "removed.tsv"
    result = cli("strip-implicit", "--lang", lang, src, "-o", kept, "--removed", removed)
    assert result.exit_code == 0, result.stderr
    assert removed.read_bytes() == b""
    assert kept.read_bytes() == src.read_bytes()


def test_injected_lines_are_removed_and_explained(cli: RunCli, tmp_path: Path) -> None:
    """Only the implicit injections leave KEPT; REMOVED gives line, tokens and the line."""
    src, lines, where = injected_file(tmp_path)
    kept, removed = tmp_path / "kept.tsv", tmp_path / "removed.tsv"
    result = cli("strip-implicit", "--lang", "en", src, "-o", kept, "--removed", removed)
    assert result.exit_code == 0, result.stderr
    want_kept, want_removed = expected_split(lines, where, case_sensitive=False)
    assert removed.read_bytes() == want_removed
    assert kept.read_bytes() == want_kept
    assert "kept 697, removed 4 implicit" in result.stderr


def test_case_sensitive_removes_case_only_differences(cli: RunCli, tmp_path: Path) -> None:
    """``--case-sensitive``: "HE SERVED AS ... prime minister" is now implicit."""
    src, lines, where = injected_file(tmp_path)
    kept, removed = tmp_path / "kept.tsv", tmp_path / "removed.tsv"
    result = cli(
        "strip-implicit", "--lang", "en", "--case-sensitive", src, "-o", kept, "--removed", removed
    )
    assert result.exit_code == 0, result.stderr
    rows = {int(r.split(b"\t", 2)[0]): r for r in removed.read_bytes().splitlines()}
    n = where[1]
    assert rows[n] == f"{n}\tHE SERVED AS prime minister\t".encode() + lines[n - 1]
    n = where[3]
    assert rows[n] == f"{n}\tsport simulator\t".encode() + lines[n - 1]
    assert where[2] not in rows  # "M8 .7 sp" keeps the sentence's case
    # Kept and removed partition the input, each in its original order.
    kept_lines = kept.read_bytes().splitlines()
    back = sorted([(int(r.split(b"\t", 2)[0]), r.split(b"\t", 2)[2]) for r in rows.values()])
    assert [line for _, line in back] == [lines[k - 1] for k, _ in back]
    assert len(kept_lines) + len(rows) == len(lines)
    assert kept_lines == [line for k, line in enumerate(lines, 1) if k not in rows]


def test_kept_goes_to_stdout_by_default(cli: RunCli, tmp_path: Path) -> None:
    src, lines, where = injected_file(tmp_path)
    result = cli("strip-implicit", "--lang", "en", src)
    assert result.exit_code == 0
    assert result.stdout_bytes == expected_split(lines, where, case_sensitive=False)[0]


def test_validate_score_and_strip_agree(cli: RunCli, tmp_path: Path) -> None:
    """The three commands use one implicit test: same lines, same tokens."""
    src, _, where = injected_file(tmp_path)
    removed = tmp_path / "removed.tsv"
    assert (
        cli(
            "strip-implicit", "--lang", "en", src, "-o", tmp_path / "k.tsv", "--removed", removed
        ).exit_code
        == 0
    )
    stripped = {
        int(n): tokens.split()
        for n, tokens, _ in (
            r.split("\t", 2) for r in removed.read_text(encoding="utf-8").splitlines()
        )
    }
    assert set(stripped) == {where[i] for i in (0, 3, 4, 5)}

    validated = cli("validate", "--lang", "en", "--format", "json", src)
    doc = orjson.loads(validated.stdout)
    implicit = [d for d in doc["files"][0]["diagnostics"] if d["code"] == "implicit"]
    assert {d["line"] for d in implicit} == set(stripped)
    assert all(d["severity"] == "warning" for d in implicit)

    report = tmp_path / "report.json"
    assert cli("score", "--lang", "en", src, "-o", report).exit_code == 0
    [system] = orjson.loads(report.read_bytes())["systems"]
    assert {x["line"]: x["tokens"] for x in system["implicit"]} == stripped
    assert system["implicit_removed"] == 4


def test_german_uses_unicode_case_folding(cli: RunCli, tmp_path: Path) -> None:
    """SPEC §5: *case folding*, not lower-casing: "LIESS" folds to the sentence's "ließ"."""
    sub = write(
        tmp_path / "de.tsv",
        "2\tGraner\tLIESS\tihn dort\n2\tGraner\tließ\tihn dort drüben\n".encode(),
    )
    removed = tmp_path / "removed.tsv"
    result = cli(
        "strip-implicit", "--lang", "de", sub, "-o", tmp_path / "kept.tsv", "--removed", removed
    )
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "kept.tsv").read_bytes() == b"2\tGraner\tLIESS\tihn dort\n"
    assert removed.read_text(encoding="utf-8") == "2\tdrüben\t2\tGraner\tließ\tihn dort drüben\n"


def test_chinese_compares_characters(cli: RunCli, tmp_path: Path) -> None:
    """Chinese is compared character by character, whatever the spacing."""
    sub = write(
        tmp_path / "zh.tsv", "1\t他\t担任\t澳大利亚总理\n1\t他\t担 任\t美 国 总 理\n".encode()
    )
    removed = tmp_path / "removed.tsv"
    result = cli(
        "strip-implicit", "--lang", "zh", sub, "-o", tmp_path / "kept.tsv", "--removed", removed
    )
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "kept.tsv").read_text(encoding="utf-8") == "1\t他\t担任\t澳大利亚总理\n"
    assert removed.read_text(encoding="utf-8") == "2\t美 国\t1\t他\t担 任\t美 国 总 理\n"


def test_unknown_sentence_ids_are_kept_untested(cli: RunCli, tmp_path: Path) -> None:
    sub = write(tmp_path / "s.tsv", b"424242\tX\tis not\tin the gold\n1\tHe\tserved as\tNarnia\n")
    result = cli("strip-implicit", "--lang", "en", sub, "-o", tmp_path / "kept.tsv")
    assert result.exit_code == 0
    assert (tmp_path / "kept.tsv").read_bytes() == b"424242\tX\tis not\tin the gold\n"
    assert "1 with unknown sentence ids" in result.stderr


def test_crlf_lines_are_kept_unchanged(cli: RunCli, tmp_path: Path) -> None:
    """A Windows file with only explicit lines comes back unchanged (CRLF included)."""
    data = b"1\tHe\tserved as\tPrime Minister\r\n1\tHe\tbecame\ta justice\r\n"
    sub = write(tmp_path / "crlf.tsv", data)
    result = cli("strip-implicit", "--lang", "en", sub, "-o", tmp_path / "kept.tsv")
    assert result.exit_code == 0
    assert (tmp_path / "kept.tsv").read_bytes() == data


@pytest.mark.parametrize(
    ("content", "line"),
    [(b"1\tHe\tserved as\tPM\n1\tHe\tserved\n", 2), (b"1\tHe\tserved\t\xff\n", 1)],
)
def test_unusable_line_writes_nothing(
    cli: RunCli, tmp_path: Path, content: bytes, line: int
) -> None:
    """Bad input is one error line naming file and line; no half-written KEPT/REMOVED."""
    sub = write(tmp_path / "bad.tsv", content)
    kept, removed = tmp_path / "kept.tsv", tmp_path / "removed.tsv"
    result = cli("strip-implicit", "--lang", "en", sub, "-o", kept, "--removed", removed)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"benchie: {sub}:{line}: error: ")
    assert not kept.exists() and not removed.exists()


def test_missing_submission_is_one_error(cli: RunCli, tmp_path: Path) -> None:
    result = cli("strip-implicit", "--lang", "en", tmp_path / "nope.tsv")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"benchie: {tmp_path / 'nope.tsv'}: error: no such file"
    ]
