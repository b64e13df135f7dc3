"""The score report: the record a paper cites, so it must be complete, pinned and repeatable.

Checks the documented JSON layout (docs/reports.md), the signature, the gold's
identity against the store's manifest, the refusals (--expect-gold, --strict), per-sentence
counts, the table and markdown views, and implicit handling (SPEC §5).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import orjson
import pytest

from benchie_cli import DEFAULT_GOLD_VERSION, __version__
from tests.conftest import GOLD_DIR, RunCli, example

EN_GOLD = "en/default/benchie_gold_annotations_en.txt"


def manifest_sha(rel: str = EN_GOLD) -> str:
    manifest = orjson.loads((GOLD_DIR / DEFAULT_GOLD_VERSION / "manifest.json").read_bytes())
    (entry,) = [f for f in manifest["files"] if f["path"] == rel]
    return entry["sha256"]


def run_json(cli: RunCli, out: Path, *args: str | Path) -> dict:
    res = cli("score", "--lang", "en", "-o", out, *args)
    assert res.exit_code == 0, res.stderr
    return orjson.loads(out.read_bytes())


# --------------------------------------------------------------------------- layout


def test_top_level_keys_in_documented_order(cli: RunCli, tmp_path: Path) -> None:
    report = run_json(cli, tmp_path / "r.json", example("en", "clausie"))
    assert list(report) == ["schema", "benchie_version", "signature", "gold", "options", "systems"]
    assert list(report["gold"]) == ["version", "language", "facet", "derived_from", "files"]
    assert list(report["gold"]["files"][0]) == ["path", "sha256", "findings"]
    assert report["benchie_version"] == __version__
    assert isinstance(report["schema"], int)


def test_system_keys_in_documented_order(cli: RunCli, tmp_path: Path) -> None:
    report = run_json(cli, tmp_path / "r.json", "--per-sentence", example("en", "clausie"))
    (system,) = report["systems"]
    assert list(system) == [
        "name",
        "rank",
        "file",
        "sha256",
        "lines",
        "extractions",
        "implicit_removed",
        "unknown_sentence_ids",
        "tp",
        "fp",
        "fn",
        "precision",
        "recall",
        "f1",
        "implicit",
        "unknown_ids",
        "per_sentence",
    ]


def test_options_record_every_setting(cli: RunCli, tmp_path: Path) -> None:
    report = run_json(
        cli,
        tmp_path / "r.json",
        "--facet",
        "concat",
        "--keep-implicit",
        "--case-sensitive",
        example("en", "clausie"),
    )
    assert report["options"] == {
        "lang": "en",
        "facet": "concat",
        "strip_implicit": False,
        "case_sensitive": True,
        "per_sentence": False,
    }


def test_same_run_twice_gives_identical_bytes(cli: RunCli, tmp_path: Path) -> None:
    """No timestamp, no unordered set: the report of the same inputs is the same bytes."""
    args = ("--per-sentence", example("en", "clausie"), f"m={example('en', 'minie')}")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    run_json(cli, a, *args)
    run_json(cli, b, *args)
    assert a.read_bytes() == b.read_bytes()
    # The report written to stdout is the same document.
    res = cli("score", "--lang", "en", "--format", "json", *args)
    assert res.exit_code == 0, res.stderr
    assert res.stdout_bytes == a.read_bytes()


def test_submission_identity(cli: RunCli, tmp_path: Path) -> None:
    """Each system names its file, the sha256 of its bytes as read, and its line count."""
    sub = tmp_path / "crlf.tsv"
    data = example("en", "clausie").read_bytes().replace(b"\n", b"\r\n")
    sub.write_bytes(data)
    (system,) = run_json(cli, tmp_path / "r.json", sub)["systems"]
    assert system["file"] == str(sub)
    assert system["sha256"] == hashlib.sha256(data).hexdigest()
    assert system["lines"] == data.count(b"\n") + (not data.endswith(b"\n"))
    assert system["extractions"] == system["lines"]


def test_stdin_submission_sha256(cli: RunCli, tmp_path: Path) -> None:
    """A submission piped through stdin is still identified by its bytes."""
    data = example("en", "clausie").read_bytes()
    out = tmp_path / "r.json"
    res = cli("score", "--lang", "en", "-o", out, "-", input=data)
    assert res.exit_code == 0, res.stderr
    (system,) = orjson.loads(out.read_bytes())["systems"]
    assert system["sha256"] == hashlib.sha256(data).hexdigest()
    assert system["name"] == "stdin"


# --------------------------------------------------------------------------- signature, gold


def test_signature_format(cli: RunCli, tmp_path: Path) -> None:
    report = run_json(cli, tmp_path / "r.json", example("en", "clausie"))
    sha = manifest_sha()
    assert re.fullmatch(r"[0-9a-f]{64}", sha)
    assert report["signature"] == (
        f"benchie|lang:en|facet:default|gold:{DEFAULT_GOLD_VERSION}@{sha[:12]}|implicit:strip|v:{__version__}"
    )


@pytest.mark.parametrize(
    ("args", "facet", "implicit"),
    [
        (("--facet", "minimal"), "minimal", "strip"),
        (("--facet", "concat", "--keep-implicit"), "concat", "keep"),
        (("--case-sensitive",), "default", "strip-cased"),
    ],
)
def test_signature_pins_options(
    cli: RunCli, tmp_path: Path, args: tuple[str, ...], facet: str, implicit: str
) -> None:
    """Every option that can change a number shows in the signature."""
    report = run_json(cli, tmp_path / "r.json", *args, example("en", "clausie"))
    assert report["signature"] == (
        f"benchie|lang:{'en'}|facet:{facet}|gold:{DEFAULT_GOLD_VERSION}@{manifest_sha()[:12]}"
        f"|implicit:{implicit}|v:{__version__}"
    )


def test_gold_identity_matches_manifest_and_file(cli: RunCli, tmp_path: Path) -> None:
    """The report's gold sha256 is the manifest's and the file's actual hash, and the path is
    relative to the store (no machine-dependent path)."""
    report = run_json(cli, tmp_path / "r.json", example("en", "clausie"))
    gold = report["gold"]
    assert gold["version"] == DEFAULT_GOLD_VERSION
    assert gold["language"] == "en"
    assert gold["derived_from"] is None
    (entry,) = gold["files"]
    assert entry["path"] == f"{DEFAULT_GOLD_VERSION}/{EN_GOLD}"
    assert entry["sha256"] == manifest_sha()
    actual = hashlib.sha256((GOLD_DIR / DEFAULT_GOLD_VERSION / EN_GOLD).read_bytes()).hexdigest()
    assert entry["sha256"] == actual
    assert str(GOLD_DIR) not in out_text(tmp_path / "r.json")


def out_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("length", [64, 12], ids=["full", "prefix12"])
def test_expect_gold_right_hash_scores(cli: RunCli, tmp_path: Path, length: int) -> None:
    out = tmp_path / "r.json"
    report = run_json(cli, out, "--expect-gold", manifest_sha()[:length], example("en", "clausie"))
    assert report["systems"][0]["tp"] > 0


@pytest.mark.parametrize("wrong", ["0" * 64, "deadbeefdead"])
def test_expect_gold_wrong_hash_refuses(cli: RunCli, tmp_path: Path, wrong: str) -> None:
    """Exit 1 (a negative verdict, not a usage error), one message, nothing written."""
    out = tmp_path / "r.json"
    res = cli("score", "--lang", "en", "--expect-gold", wrong, "-o", out, example("en", "clausie"))
    assert res.exit_code == 1
    assert wrong in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert not out.exists()
    assert res.stdout == ""


@pytest.mark.parametrize("pin", ["a5107265", "not-a-hash-at-all", "g" * 64])
def test_expect_gold_malformed_is_a_usage_error(cli: RunCli, tmp_path: Path, pin: str) -> None:
    """A pin shorter than the signature's 12 hex digits (or not hex) could match the wrong
    gold by accident: refused as usage (exit 2), saying what is accepted."""
    out = tmp_path / "r.json"
    res = cli("score", "--lang", "en", "--expect-gold", pin, "-o", out, example("en", "clausie"))
    assert res.exit_code == 2
    assert "12 hex digits" in res.stderr
    assert not out.exists()


def test_output_directory_checked_before_scoring(cli: RunCli, tmp_path: Path) -> None:
    """A typo in -o fails at once, before any warning about the submission is printed."""
    sub = tmp_path / "sub.tsv"
    sub.write_text("999\tX\tis\tY\n1\tHe\tserved\tas Prime Minister\n", encoding="utf-8")
    res = cli("score", "--lang", "en", "-o", tmp_path / "nodir" / "r.json", sub)
    assert res.exit_code == 2
    assert "directory does not exist" in res.stderr
    assert "999" not in res.stderr  # the unknown-id warning would come from scoring


def test_stdin_twice_is_refused(cli: RunCli) -> None:
    res = cli("score", "--lang", "en", "-", "again=-", input="1\tHe\tserved\tas\n")
    assert res.exit_code == 2
    assert "only once" in res.stderr


# --------------------------------------------------------------------------- strict

GOLD = (
    "sent_id:1\tHe served as the Prime Minister of Australia .\n"
    "1--> Cluster 1:\n"
    "He --> served as --> [the] Prime Minister [of Australia]\n"
    "1--> Cluster 2:\n"
    "He --> was --> Prime Minister\n"
)


@pytest.fixture
def gold_file(tmp_path: Path) -> Path:
    path = tmp_path / "gold.txt"
    path.write_text(GOLD, encoding="utf-8")
    return path


def test_strict_unknown_sentence_id(cli: RunCli, gold_file: Path, tmp_path: Path) -> None:
    """Unknown ids are a warning (exit 0) normally, and a failure (exit 1, no report, the
    line named) with --strict."""
    sub = tmp_path / "sub.tsv"
    sub.write_text(
        "1\tHe\tserved as\tPrime Minister\n42\tHe\tserved\tas Prime Minister\n", encoding="utf-8"
    )
    out = tmp_path / "r.json"
    res = cli("score", "--gold-file", gold_file, "-o", out, sub)
    assert res.exit_code == 0, res.stderr
    assert "42" in res.stderr
    out.unlink()
    res = cli("score", "--gold-file", gold_file, "--strict", "-o", out, sub)
    assert res.exit_code == 1
    assert f"{sub}:2:" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_strict_on_real_gold(cli: RunCli, tmp_path: Path) -> None:
    """The same against the store: an unknown id in an otherwise upstream file."""
    sub = tmp_path / "sub.tsv"
    sub.write_bytes(example("en", "clausie").read_bytes().rstrip(b"\n") + b"\n9999\ta\tb\tc\n")
    out = tmp_path / "r.json"
    res = cli("score", "--lang", "en", "--strict", "-o", out, sub)
    assert res.exit_code == 1
    assert "9999" in res.stderr
    assert not out.exists()


def test_strict_empty_slot(cli: RunCli, gold_file: Path, tmp_path: Path) -> None:
    """An empty slot is scored as it is (a warning), and fails under --strict."""
    sub = tmp_path / "sub.tsv"
    sub.write_text("1\tHe\tserved as\tPrime Minister\n1\tHe\t\tPrime Minister\n", encoding="utf-8")
    out = tmp_path / "r.json"
    report = run_json(cli, out, "--gold-file", gold_file, sub)
    system = report["systems"][0]
    assert (system["tp"], system["fp"], system["fn"]) == (1, 1, 1)
    out.unlink()
    res = cli("score", "--gold-file", gold_file, "--strict", "-o", out, sub)
    assert res.exit_code == 1
    assert not out.exists()


# --------------------------------------------------------------------------- per sentence


def test_per_sentence_sums_equal_totals(cli: RunCli, tmp_path: Path) -> None:
    report = run_json(
        cli,
        tmp_path / "r.json",
        "--per-sentence",
        example("en", "clausie"),
        example("en", "stanford"),
    )
    gold_ids = [
        line.split("\t", 1)[0][len("sent_id:") :]
        for line in (GOLD_DIR / DEFAULT_GOLD_VERSION / EN_GOLD)
        .read_text(encoding="utf-8")
        .splitlines()
        if line.startswith("sent_id:")
    ]
    for system in report["systems"]:
        rows = system["per_sentence"]
        assert [r["sent_id"] for r in rows] == gold_ids  # every sentence, in gold order
        for key in ("tp", "fp", "fn"):
            assert sum(r[key] for r in rows) == system[key], key
        assert sum(r["tp"] + r["fn"] for r in rows) == 1350  # SPEC §6: English synsets
        assert sum(r["extractions"] for r in rows) == (
            system["extractions"] - system["implicit_removed"] - system["unknown_sentence_ids"]
        )
        assert all(r["fp"] <= r["extractions"] for r in rows)


def test_no_per_sentence_without_the_flag(cli: RunCli, tmp_path: Path) -> None:
    report = run_json(cli, tmp_path / "r.json", example("en", "clausie"))
    assert "per_sentence" not in report["systems"][0]


# --------------------------------------------------------------------------- views


def rows_of(text: str, names: list[str]) -> dict[str, list[str]]:
    """Cells of each system's row in a table or markdown view, after its rank cell."""
    out = {}
    for line in text.splitlines():
        cells = [c for c in re.split(r"\s*\|\s*|\s{2,}", line.strip()) if c]
        if len(cells) > 1 and cells[1] in names:
            assert cells[0].isdigit(), line  # the leaderboard rank
            out[cells[1]] = cells[1:]
    return out


def test_table_and_markdown_agree_with_json(cli: RunCli, tmp_path: Path) -> None:
    """Both views show each system's P, R, F1 to 4 decimals, its counts, and the signature."""
    subs = [example("en", "clausie"), example("en", "roi_t")]
    report = run_json(cli, tmp_path / "r.json", *subs)
    names = [s["name"] for s in report["systems"]]
    for fmt in ("table", "markdown"):
        res = cli("score", "--lang", "en", "--format", fmt, *subs)
        assert res.exit_code == 0, res.stderr
        assert report["signature"] in res.stdout
        rows = rows_of(res.stdout, names)
        assert sorted(rows) == sorted(names), res.stdout
        for system in report["systems"]:
            cells = rows[system["name"]]
            assert cells[1:7] == [
                f"{system['precision']:.4f}",
                f"{system['recall']:.4f}",
                f"{system['f1']:.4f}",
                str(system["tp"]),
                str(system["fp"]),
                str(system["fn"]),
            ], (fmt, cells)
    # The published clausie numbers, rounded.
    assert rows_of(res.stdout, names)["clausie"][1:4] == ["0.5029", "0.2556", "0.3389"]


def test_table_is_the_default_without_output(cli: RunCli) -> None:
    res = cli("score", "--lang", "en", example("en", "clausie"))
    assert res.exit_code == 0, res.stderr
    assert not res.stdout.lstrip().startswith("{")
    assert "0.5029" in res.stdout
    assert res.stdout.rstrip().splitlines()[-1].startswith("benchie|lang:en|")


def test_markdown_written_to_file(cli: RunCli, tmp_path: Path) -> None:
    """--format markdown with -o writes markdown (the format wins over -o's JSON default)."""
    out = tmp_path / "r.md"
    res = cli("score", "--lang", "en", "--format", "markdown", "-o", out, example("en", "clausie"))
    assert res.exit_code == 0, res.stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("| # | system |")
    assert "| 1 | clausie | 0.5029 | 0.2556 | 0.3389 |" in text


# --------------------------------------------------------------------------- implicit

# L1: He | served as | Prime Minister        explicit, correct (synset 1).
# L2: He | was | Prime Minister              "was" is not in the sentence: implicit.
#                                            Kept, it is correct (synset 2's triple).
# L3: He | is | Australian                   "is", "australian" absent: implicit; kept, wrong.
# L4: he | served as | prime minister        explicit after case folding; wrong (matching is
#                                            exact).
IMPLICIT_SUB = (
    "1\tHe\tserved as\tPrime Minister\n"
    "1\tHe\twas\tPrime Minister\n"
    "1\tHe\tis\tAustralian\n"
    "1\the\tserved as\tprime minister\n"
)


def test_strip_implicit_default(cli: RunCli, gold_file: Path, tmp_path: Path) -> None:
    """Stripped (default): L2, L3 removed and listed with their tokens; L1 TP, L4 FP, the
    "was" synset FN -> TP 1, FP 1, FN 1."""
    sub = tmp_path / "sub.tsv"
    sub.write_text(IMPLICIT_SUB, encoding="utf-8")
    out = tmp_path / "r.json"
    res = cli("score", "--gold-file", gold_file, "-o", out, sub)
    assert res.exit_code == 0, res.stderr
    assert "2 implicit" in res.stderr
    system = orjson.loads(out.read_bytes())["systems"][0]
    assert (system["tp"], system["fp"], system["fn"]) == (1, 1, 1)
    assert system["implicit_removed"] == 2
    assert system["implicit"] == [
        {"line": 2, "sent_id": "1", "tokens": ["was"]},
        {"line": 3, "sent_id": "1", "tokens": ["is", "australian"]},
    ]
    assert "|implicit:strip|" in orjson.loads(out.read_bytes())["signature"]


def test_keep_implicit(cli: RunCli, gold_file: Path, tmp_path: Path) -> None:
    """Kept: L2 now covers synset 2 and L3 is one more FP -> TP 2, FP 2, FN 0; nothing is
    removed or listed."""
    sub = tmp_path / "sub.tsv"
    sub.write_text(IMPLICIT_SUB, encoding="utf-8")
    report = run_json(cli, tmp_path / "r.json", "--gold-file", gold_file, "--keep-implicit", sub)
    system = report["systems"][0]
    assert (system["tp"], system["fp"], system["fn"]) == (2, 2, 0)
    assert system["implicit_removed"] == 0
    assert system["implicit"] == []
    assert "|implicit:keep|" in report["signature"]


def test_case_sensitive_implicit(cli: RunCli, gold_file: Path, tmp_path: Path) -> None:
    """With --case-sensitive, L4's "he", "prime", "minister" are absent from the sentence
    (which has "He", "Prime", "Minister"): three removed, TP 1, FP 0, FN 1."""
    sub = tmp_path / "sub.tsv"
    sub.write_text(IMPLICIT_SUB, encoding="utf-8")
    report = run_json(cli, tmp_path / "r.json", "--gold-file", gold_file, "--case-sensitive", sub)
    system = report["systems"][0]
    assert (system["tp"], system["fp"], system["fn"]) == (1, 0, 1)
    assert [x["tokens"] for x in system["implicit"]] == [
        ["was"],
        ["is", "Australian"],
        ["he", "prime", "minister"],
    ]


def test_retokenised_extraction_is_explicit(cli: RunCli, tmp_path: Path) -> None:
    """SPEC §5: "M8 .7 sp" has the tokens of "M8.7sp" (M|8|.|7|sp), so it is not implicit."""
    gold = tmp_path / "g.txt"
    gold.write_text(
        "sent_id:1\tThe M8.7sp quake hit .\n1--> Cluster 1:\nThe M8.7sp quake --> hit --> [it]\n",
        encoding="utf-8",
    )
    sub = tmp_path / "s.tsv"
    sub.write_text("1\tThe M8 .7 sp quake\thit\tthe coast\n", encoding="utf-8")
    system = run_json(cli, tmp_path / "r.json", "--gold-file", gold, sub)["systems"][0]
    # "the" occurs (case folding), "coast" does not: implicit because of "coast" only.
    assert system["implicit"] == [{"line": 1, "sent_id": "1", "tokens": ["coast"]}]


def test_wrong_language_is_hinted(cli: RunCli, tmp_path: Path) -> None:
    """A German file scored as English: every extraction is implicit, and the error says
    what is likely wrong instead of leaving a silent zero; a German file with a few English
    lines scores, with the hint on stderr (an error under --strict)."""
    res = cli("score", example("de", "m2oie_de"))
    assert res.exit_code == 2 and res.stdout == ""
    assert "none of its 313 extractions can be scored" in res.stderr
    assert "score it with --lang de [wrong-language]" in res.stderr
    ok = cli("score", "--lang", "de", example("de", "m2oie_de"))
    assert ok.exit_code == 0 and "[wrong-language]" not in ok.stderr
    mixed = tmp_path / "mixed.tsv"
    english = example("en", "clausie").read_bytes().splitlines(keepends=True)[:20]
    mixed.write_bytes(example("de", "m2oie_de").read_bytes() + b"".join(english))
    res = cli("score", mixed)
    assert res.exit_code == 0
    assert "score it with --lang de [wrong-language]" in res.stderr
    # (the finding says why; the generic "is the file really --lang en?" gives way to it)
    assert "is the file really --lang en" not in res.stderr
    strict = cli("score", "--strict", mixed)
    assert strict.exit_code == 1 and "an error under --strict" in strict.stderr


def test_wrong_language_is_a_validate_warning(cli: RunCli) -> None:
    res = cli("validate", "--lang", "zh", "--format", "json", example("en", "clausie"))
    doc = orjson.loads(res.stdout)
    diagnostics = doc["files"][0]["diagnostics"]
    codes = [d["code"] for d in diagnostics]
    # The language whose gold fits is named (tests/inputs/test_mistakes.py), instead of a question.
    assert codes.count("wrong-language") == 1 and "suspicious-language" not in codes
    assert "looks English" in diagnostics[codes.index("wrong-language")]["message"]
    # Nothing of it can be scored against the Chinese gold: the error `score` would give.
    assert codes.count("nothing-scorable") == 1 and res.exit_code == 1
