"""A submission in Unicode NFD where the gold is NFC (benchie_cli.inputs.mistakes,
``unicode-normalisation``): the scores stay the raw strings' (as the original scorer's),
and the finding names the cause where the language hint blamed --lang."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import orjson

from benchie_cli.inputs.mistakes import MistakeCheck, detect_unicode_form
from tests.conftest import GOLD_DIR, RunCli

#: Sentence 1 of the German gold (1.1.0), and two of its clusters.
SENTENCE = (
    "Er diente als erster Premierminister von Australien und wurde Gründungsrichter des "
    "obersten Gerichts von Australien."
)
GOLD = (
    f"sent_id:1\t{SENTENCE}\n"
    "1--> Cluster 1:\n"
    "Er --> wurde --> Gründungsrichter [des obersten Gerichts] [von Australien]\n"
    "1--> Cluster 2:\n"
    "Er --> diente als --> [erster] Premierminister [von Australien]\n"
)
#: One extraction of each cluster; only the first has a letter NFD decomposes ('ü').
LINES = [
    "1\tEr\twurde\tGründungsrichter des obersten Gerichts von Australien",
    "1\tEr\tdiente als\terster Premierminister von Australien",
]
#: The gold's words a Unicode form can change (MistakeCheck.gold_words of SENTENCE).
WORDS = frozenset({"Gründungsrichter"})
DE_GOLD = GOLD_DIR / "1.1.0" / "de" / "default" / "benchie_gold_annotations_de.txt"


def _head(lines: list[str], form: str = "NFC") -> list[bytes]:
    return [unicodedata.normalize(form, line).encode() for line in lines]


def test_nfd_line_is_named_with_its_decomposed_letter() -> None:
    """'ü' decomposed is 'u' + U+0308 (bytes 75 cc 88, not c3 bc); the ASCII line is the
    same in both forms, so one of the two sampled lines is not NFC, and it is every line
    NFC could change."""
    head = _head(LINES, "NFD")
    assert head[0] != _head(LINES)[0] and b"u\xcc\x88" in head[0] and head[1] == _head(LINES)[1]
    found = detect_unicode_form(head, WORDS)
    assert found is not None and (found.code, found.line) == ("unicode-normalisation", 1)
    assert found.message.startswith(
        "line 1 is Unicode NFD (decomposed: 'u' + U+0308 for 'ü'), the gold is NFC: its "
        "words do not match the sentence's (1 of 2 sampled lines are not NFC); normalise the "
        "file to NFC: python3 -c"
    )


def test_no_finding_without_non_nfc_text_or_with_a_gold_not_nfc() -> None:
    assert detect_unicode_form(_head(LINES), WORDS) is None
    assert detect_unicode_form(_head(LINES[1:], "NFD"), WORDS) is None  # ASCII
    assert detect_unicode_form(_head(LINES, "NFD"), None) is None


def test_a_stray_decomposed_letter_in_an_nfc_file_is_not_the_file_s_form() -> None:
    """One NFD line among 40 NFC lines with 'ü': under the share a mismatch needs."""
    lines = [LINES[0]] * 40
    head = [*_head(lines), *_head(LINES[:1], "NFD")]
    assert detect_unicode_form(head, WORDS) is None
    assert detect_unicode_form([*head, *_head(LINES[:1] * 2, "NFD")], WORDS) is not None


def test_a_decomposed_word_the_gold_lacks_is_no_finding() -> None:
    """NFC must make a word of the gold: 'café' decomposed, appended to English lines,
    matches no sentence in either form, so the form is no cause (it had refused such a
    file as nothing scorable, where the same file in NFC was scored, exit 0)."""
    lines = [f"{line} café" for line in LINES]
    assert detect_unicode_form(_head(lines, "NFD"), WORDS) is None
    assert detect_unicode_form(_head(lines, "NFD"), WORDS | {"café"}) is not None
    check = MistakeCheck("de", {"1": SENTENCE})
    assert check.gold_words == WORDS
    assert MistakeCheck("de", {"1": unicodedata.normalize("NFD", SENTENCE)}).gold_words is None


def test_text_neither_nfc_nor_nfd_is_named_too() -> None:
    """A CJK compatibility ideograph (U+F900) is no NFD, but NFC maps it to U+8C48."""
    found = detect_unicode_form(["1\t\uf900\tis\tx".encode()], frozenset({"\u8c48"}))
    assert found is not None
    assert found.message.startswith("line 1 is not Unicode NFC (U+F900 for '\u8c48')")


def test_a_result_that_looks_normal_is_checked_too() -> None:
    """Half the file lost does not look suspicious (not mostly implicit): the check runs on
    every file, as the header and tokenisation checks do."""
    check = MistakeCheck("de", {"1": SENTENCE})
    codes = [f.code for f in check.check(_head(LINES, "NFD"), suspicious=False)]
    assert codes == ["unicode-normalisation"]
    assert check.check(_head(LINES), suspicious=False) == []
    nfd_gold = MistakeCheck("de", {"1": unicodedata.normalize("NFD", SENTENCE)})
    assert nfd_gold.check(_head(LINES, "NFD")) == []


def _system(cli: RunCli, out: Path, *args: str | Path) -> dict[str, object]:
    res = cli("score", "-o", out, *args)
    assert res.exit_code == 0, res.stderr
    system: dict[str, object] = orjson.loads(out.read_bytes())["systems"][0]
    return system


def test_score_of_the_hand_made_fixture(cli: RunCli, tmp_path: Path) -> None:
    """NFC: both clusters found (TP 2, F1 1.0). NFD: the 'Gründungsrichter' extraction has a
    word its sentence lacks, is implicit and removed: TP 1, FN 1, F1 2/3, the raw strings'
    score, with the hint saying why."""
    gold = tmp_path / "gold_de.txt"
    gold.write_text(GOLD, encoding="utf-8")
    nfc = tmp_path / "nfc.tsv"
    nfc.write_bytes(b"\n".join(_head(LINES)) + b"\n")
    nfd = tmp_path / "nfd.tsv"
    nfd.write_bytes(b"\n".join(_head(LINES, "NFD")) + b"\n")
    args = ("--lang", "de", "--gold-file", gold)
    good = _system(cli, tmp_path / "c.json", *args, nfc)
    assert (good["tp"], good["fn"], good["f1"]) == (2, 0, 1.0)
    bad = _system(cli, tmp_path / "d.json", *args, nfd)
    assert (bad["tp"], bad["fp"], bad["fn"], round(float(str(bad["f1"])), 4)) == (1, 0, 1, 0.6667)
    res = cli("score", *args, nfd)
    assert f"{nfd}:1: hint: line 1 is Unicode NFD (decomposed: 'u' + U+0308" in res.stderr
    assert "[unicode-normalisation]" not in cli("score", *args, nfc).stderr
    # A line the reader cannot read is no matter of Unicode form: not named as its cause.
    broken = tmp_path / "broken.tsv"
    broken.write_bytes(nfd.read_bytes() + b"1\tonly two\n")
    res = cli("score", *args, broken)
    assert res.exit_code == 2 and f"{broken}:3: error: 2 TAB-separated columns" in res.stderr
    assert "likely cause" not in res.stderr


def _perfect_and_nfd(tmp_path: Path) -> tuple[Path, Path]:
    """The first triple of every German gold synset, brackets dropped; and its NFD."""
    lines = []
    sent_id, take = "", False
    for line in DE_GOLD.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"sent_id:(\S+)\t", line):
            sent_id = m.group(1)
        elif re.match(r"\S+--> Cluster", line):
            take = True
        elif take and " --> " in line:
            slots = [re.sub(r"[\[\]]", "", s).strip() for s in line.split(" --> ")]
            lines.append("\t".join([sent_id, *slots]))
            take = False
    text = "\n".join(lines) + "\n"
    perfect, nfd = tmp_path / "de_perfect.tsv", tmp_path / "de_nfd.tsv"
    perfect.write_text(text, encoding="utf-8")
    nfd.write_text(unicodedata.normalize("NFD", text), encoding="utf-8")
    return perfect, nfd


def test_real_german_gold_in_nfd(cli: RunCli, tmp_path: Path) -> None:
    """The scores are the raw strings' (no normalisation before matching); the NFD file gets
    the finding, first under --strict and first in validate, where the language hint blamed
    --lang; the NFC file gets none."""
    perfect, nfd = _perfect_and_nfd(tmp_path)
    good = _system(cli, tmp_path / "p.json", "--lang", "de", perfect)
    assert (good["tp"], round(float(str(good["f1"])), 4)) == (1045, 0.9808)
    bad = _system(cli, tmp_path / "n.json", "--lang", "de", nfd)
    assert (bad["tp"], bad["implicit_removed"], round(float(str(bad["f1"])), 4)) == (
        486,
        588,
        0.6183,
    )
    res = cli("score", "--lang", "de", nfd)
    assert f"{nfd}:3: hint: line 3 is Unicode NFD (decomposed: 'u' + U+0308 for 'ü')" in (
        res.stderr
    )
    assert "[unicode-normalisation]" not in cli("score", "--lang", "de", perfect).stderr
    strict = cli("score", "--strict", "--lang", "de", nfd)
    assert strict.exit_code == 1 and strict.stdout == ""
    assert "is Unicode NFD" in strict.stderr and "really --lang" not in strict.stderr
    checked = cli("validate", "--lang", "de", nfd).stdout.splitlines()
    assert checked[0].endswith("[unicode-normalisation]")
