"""CaRB in Spanish, Portuguese, Hindi, Telugu and Chinese: moie's published gold and input
sentences of each language, added by sha256 as a part of the carb benchmark, and scored by
moie's rules (docs/carb.md, "Other languages (moie)"); English stays CaRB's.

The published files have no licence to be shipped: hand-made stand-ins take their place,
their sha256 and counts put in the registry's entries for the test. The real files are
checked by ``test_benchmark_add.py::test_the_published_files`` when they are at hand, and
the numbers against moie's own scorer by ``perf/bench_moie.py``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson
import pytest

from benchie_cli.benchmarks.carb.data import Extraction
from benchie_cli.benchmarks.carb.metric import match, score
from benchie_cli.registry import BENCHMARKS
from tests.conftest import GOLD_DIR, RunCli

#: Stand-ins of moie's files by language: (gold TSV lines, input sentences). Spanish has
#: moie's ``<Ser>`` token and a capitalised word; Hindi Devanagari with its vowel signs and
#: virama, and an annotator's note kept as an argument; Telugu a ZWNJ (U+200C) inside a
#: word; Chinese words pre-segmented by spaces, full-width punctuation and the relation
#: placeholder X.
STAND_INS = {
    "es": (
        "Ana es la maestra de Beto .\t<Ser> maestra de\tAna\tBeto\n"
        "Ana es la maestra de Beto .\tes\tAna\tla maestra de Beto\n"
        "Carlos Vive en Lima .\tVive en\tCarlos\tLima\n",
        "Ana es la maestra de Beto .\nCarlos Vive en Lima .\n",
    ),
    "hi": (
        "राम ने सीता को किताब दी ।\tदी\tराम ने\tसीता को किताब\tmorphology change\n"
        "क्या श्याम घर गया ?\tघर गया\tश्याम\n",
        "राम ने सीता को किताब दी ।\nक्या श्याम घर गया ?\n",
    ),
    "te": (
        "రాము సీత\u200cకు పుస్తకం ఇచ్చాడు .\tఇచ్చాడు\tరాము\tసీత\u200cకు పుస్తకం\n",
        "రాము సీత\u200cకు పుస్తకం ఇచ్చాడు .\n",
    ),
    "zh": (
        "汉 服 作 为 汉 民族 的 传统 服饰 \uff0c\t作 为 X 的 传统 服饰\t汉 服\t汉 民族\n",
        "汉 服 作 为 汉 民族 的 传统 服饰 \uff0c\n",
    ),
}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def moie(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each stand-in under its published name in ``download/``, pinned in the registry as
    that language's published files; returns the directory."""
    download = tmp_path / "download"
    download.mkdir()
    pins: dict[str, tuple[str, int, int, int]] = {}
    for lang, (gold, sentences) in STAND_INS.items():
        for name, text in ((f"{lang}_test.tsv", gold), (f"{lang}_test.input", sentences)):
            data = text.encode()
            (download / name).write_bytes(data)
            tuples = len(gold.splitlines()) if name.endswith(".tsv") else 0
            count = len(sentences.splitlines())
            pins[name] = (_sha(data), len(data), count, tuples)
    entry = BENCHMARKS["carb"]
    published = tuple(
        p._replace(sha256=pins[p.file][0], size=pins[p.file][1], sentences=pins[p.file][2])
        if p.file in pins
        else p
        for p in entry.published
    )
    published = tuple(
        p._replace(tuples=pins[p.file][3]) if p.file in pins else p for p in published
    )
    monkeypatch.setitem(BENCHMARKS, "carb", entry._replace(published=published))
    return download


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    """A gold directory with CaRB's shipped English gold, and nothing of moie's."""
    root = tmp_path / "gold"
    (root / "carb").mkdir(parents=True)
    (root / "carb" / "1.0.0").symlink_to(GOLD_DIR / "carb" / "1.0.0")
    return root


def _add(cli: RunCli, moie: Path, gold: Path, *langs: str) -> None:
    files = [moie / f"{lang}_test.{ext}" for lang in langs for ext in ("tsv", "input")]
    added = cli("benchmark", "add", "carb", *files, "--gold-dir", gold)
    assert added.exit_code == 0, added.stderr


def _tagged(line: str, confidence: float = -1.0, upper: bool = False) -> str:
    """A gold TSV line as OpenIE6's tagged line (the allennlp format): relation, arg1 and
    the other arguments joined as arg2; ``upper``: its slots upper-cased."""
    text, rel, arg1, *rest = line.split("\t")
    arg2 = " ".join(rest)
    if upper:
        rel, arg1, arg2 = rel.upper(), arg1.upper(), arg2.upper()
    tags = f"<arg1> {arg1} </arg1> <rel> {rel} </rel> <arg2> {arg2} </arg2>"
    return f"{text}\t{tags}\t{confidence}\n"


def _system(tmp_path: Path, lang: str, **kwargs: Any) -> Path:
    """The gold's own tuples as a system output, a confidence each unless given."""
    lines = STAND_INS[lang][0].splitlines()
    path = tmp_path / f"{lang}.carb"
    confidence = kwargs.pop("confidence", None)
    path.write_text(
        "".join(
            _tagged(line, -1.0 - n if confidence is None else confidence, **kwargs)
            for n, line in enumerate(lines)
        ),
        encoding="utf-8",
    )
    return path


def _score(cli: RunCli, gold: Path, *args: str | Path) -> dict[str, Any]:
    result = cli("score", "--benchmark", "carb", "--format", "json", "--gold-dir", gold, *args)
    assert result.exit_code == 0, result.stderr
    doc: dict[str, Any] = orjson.loads(result.stdout)
    return doc


# --------------------------------------------------------------------------- the rules


def test_words_are_compared_lowercased_before_the_be_rule() -> None:
    """Worked by hand: gold "IS a teacher" (Ana; Bob) and prediction "Be teacher" (ana;
    bob). Lowercased, "teacher" matches and the spare predicted "be" stands for "is": 2
    relation words, 1 + 1 argument words; precision (2+2)/(2+2) = 1, recall 4/(3+2) = 0.8.
    As written (CaRB's rule) only "teacher" matches in the relation, no "be" is spare and
    the arguments differ in case: precision 1/4, recall 1/5."""
    gold = Extraction("IS a teacher", ("Ana", "Bob"), 1.0)
    predicted = Extraction("Be teacher", ("ana", "bob"), 1.0)
    assert match(gold, predicted, moie=True) == (1.0, 0.8)
    assert match(gold, predicted) == (0.25, 0.2)


def test_words_are_lowercased_as_python_lowercases_them() -> None:
    """Python's str.lower, context and all: a capital sigma at the end of a word becomes a
    final sigma, elsewhere a small sigma (moie's scorer lowercases with Python). Worked by
    hand: a gold relation of two Greek words and the prediction of the same two words in
    capitals match word for word, precision and recall 1; against the gold whose second word
    ends in a small sigma (what a compiled build on Python 3.11 and 3.12 made of the capitals
    when it lowered a method call), 3 of 4 words, 0.75."""
    gold = Extraction("στην οδος", ("a", "b"), 1.0)
    predicted = Extraction("ΣΤΗΝ ΟΔΟΣ", ("A", "B"), 1.0)
    assert match(gold, predicted, moie=True) == (1.0, 1.0)
    assert match(Extraction("στην οδοσ", ("a", "b"), 1.0), predicted, moie=True) == (0.75, 0.75)


def test_the_said_test_reads_the_gold_relation_as_written() -> None:
    """A gold relation "Said" is not said-type (the test is case-sensitive, as moie's): the
    prediction's reversed arguments are not tried, so only the relation matches: 1 of its
    4 words, 1 of the gold's 4. "said" is said-type: reversed, every word matches."""
    predicted = Extraction("said", ("it rains", "Ana"), 1.0)
    assert match(Extraction("Said", ("Ana", "it rains"), 1.0), predicted, moie=True) == (
        0.25,
        0.25,
    )
    assert match(Extraction("said", ("Ana", "it rains"), 1.0), predicted, moie=True) == (1.0, 1.0)


def test_a_curve_of_one_point_has_an_auc_of_0() -> None:
    """Every confidence the same: one threshold. CaRB's AUC is the trapezoid from that point
    to (recall 0, precision 1), R(P+1)/2; moie's is 0. The point itself is the same."""
    gold = {"Ana likes Bob .": [Extraction("likes", ("Ana", "Bob"), 1.0)]}
    predicted = {
        "Ana likes Bob .": [
            Extraction("likes", ("Ana", "Bob"), 0.5),
            Extraction("sees", ("Ana", "Bob"), 0.5),
        ]
    }
    carb, moie = score(gold, predicted), score(gold, predicted, moie=True)
    assert carb.optimal == moie.optimal == (0.5, 1.0, 2 / 3)
    assert len(carb.curve) == len(moie.curve) == 1
    assert carb.auc == 1.0 * (0.5 + 1) / 2 and moie.auc == 0.0
    two = {"Ana likes Bob .": [*predicted["Ana likes Bob ."][:1], Extraction("sees", ("A",), 0.1)]}
    assert score(gold, two, moie=True).auc == score(gold, two).auc > 0.0


# --------------------------------------------------------------------------- the benchmark


def test_a_language_is_added_scored_and_verified(
    cli: RunCli, tmp_path: Path, moie: Path, gold: Path
) -> None:
    system = _system(tmp_path, "es", upper=True)
    absent = cli("score", "--benchmark", "carb", "--lang", "es", "--gold-dir", gold, system)
    assert absent.exit_code == 2
    assert "the CaRB (es, test) benchmark is not in the gold store" in absent.stderr
    assert "`benchie benchmark add carb es_test.tsv es_test.input`" in absent.stderr
    assert "https://github.com/dair-iitd/moie" in absent.stderr

    _add(cli, moie, gold, "es")
    version = gold / "carb" / "es" / "1.0.0"
    assert (version / "test" / "es_test.tsv").read_bytes() == (moie / "es_test.tsv").read_bytes()
    assert (gold / "carb" / "es" / ".gitignore").read_text() == "*\n"

    out = tmp_path / "r.json"
    scored = cli(
        "score",
        "--benchmark",
        "carb",
        "--lang",
        "es",
        "--metric",
        "carb,carb-ss",
        "--gold-dir",
        gold,
        system,
        "-o",
        out,
    )
    assert scored.exit_code == 0, scored.stderr
    report = orjson.loads(out.read_bytes())
    assert report["scorer"] == "moie"
    assert "|split:test|lang:es|metric:carb|scorer:moie|gold:1.0.0@" in report["signature"]
    assert "|lang:es|metric:carb-ss|scorer:moie|" in report["carb-ss_signature"]
    assert report["gold"]["language"] == "es" and report["gold"]["gold_sentences"] == 2
    assert report["gold"]["files"][0]["path"] == "carb/es/1.0.0/test/es_test.tsv"
    assert report["gold"]["sentences"]["path"] == "carb/es/1.0.0/test/es_test.input"
    # upper-cased, every slot still matches its gold tuple's, <Ser> too (as <ser>)
    for metric in ("carb", "carb-ss"):
        numbers = report["systems"][0][metric]
        assert (numbers["precision"], numbers["recall"], numbers["f1"]) == (1.0, 1.0, 1.0)
        assert numbers["zero_conf"] == [1.0, 1.0, 1.0] and numbers["points"] == 3

    verified = cli("verify", out, system, "--gold-dir", gold)
    assert verified.exit_code == 0, verified.stderr
    (gold / "carb" / "es").rename(gold / "carb" / "gone")
    unverified = cli("verify", out, system, "--gold-dir", gold)
    assert unverified.exit_code == 2
    assert "`benchie benchmark add carb es_test.tsv es_test.input`" in unverified.stderr


def test_one_confidence_for_all_gives_an_auc_of_0(
    cli: RunCli, tmp_path: Path, moie: Path, gold: Path
) -> None:
    _add(cli, moie, gold, "es")
    system = _system(tmp_path, "es", confidence=1.0)
    numbers = _score(cli, gold, "--lang", "es", system)["systems"][0]["carb"]
    assert numbers["auc"] == 0.0 and numbers["points"] == 1
    assert numbers["single_threshold"] is True and numbers["f1"] == 1.0


def test_english_is_carb_s_own_scorer_unchanged(cli: RunCli, tmp_path: Path, gold: Path) -> None:
    """``--lang en`` is CaRB's gold and rules: the same report as without ``--lang``,
    naming no scorer, case-sensitive (an upper-cased copy of a gold tuple matches nothing)."""
    line = (GOLD_DIR / "carb" / "1.0.0" / "test" / "carb_test.tsv").read_text().splitlines()[0]
    system = tmp_path / "en.carb"
    system.write_text(_tagged(line) + _tagged(line, -2.0, upper=True), encoding="utf-8")
    plain = cli("score", "--benchmark", "carb", "--format", "json", "--gold-dir", gold, system)
    english = _score(cli, gold, "--lang", "en", system)
    assert plain.exit_code == 0 and orjson.loads(plain.stdout) == english
    assert "scorer" not in english and "gold_sentences" not in english["gold"]
    assert "|split:test|metric:carb|gold:1.0.0@" in english["signature"]
    numbers = english["systems"][0]["carb"]
    assert "zero_conf" not in numbers and numbers["precision"] == 1.0  # at the first only


@pytest.mark.parametrize("lang", ["hi", "te", "zh"])
def test_scripts_round_trip(cli: RunCli, tmp_path: Path, moie: Path, gold: Path, lang: str) -> None:
    """Devanagari, Telugu (a ZWNJ inside a word) and Chinese pass every reader unharmed:
    ``benchie sentences`` gives the input file's lines byte for byte, and the gold's own
    tuples score 1, as a native output and as a BenchIE TSV naming sentences by line."""
    _add(cli, moie, gold, lang)
    listed = cli("sentences", "--benchmark", "carb", "--lang", lang, "--gold-dir", gold)
    assert listed.exit_code == 0, listed.stderr
    assert listed.stdout == STAND_INS[lang][1]

    native = _score(cli, gold, "--lang", lang, _system(tmp_path, lang))
    ids = {text: str(n) for n, text in enumerate(STAND_INS[lang][1].splitlines(), 1)}
    tsv = tmp_path / f"{lang}.tsv"
    tsv.write_text(
        "".join(
            f"{ids[text]}\t{arg1}\t{rel}\t{' '.join(rest)}\n"
            for text, rel, arg1, *rest in (
                line.split("\t") for line in STAND_INS[lang][0].splitlines()
            )
        ),
        encoding="utf-8",
    )
    by_id = _score(cli, gold, "--lang", lang, "--input-format", "benchie", tsv)
    for doc in (native, by_id):
        numbers = doc["systems"][0]["carb"]
        assert (numbers["precision"], numbers["recall"], numbers["f1"]) == (1.0, 1.0, 1.0)
        assert f"|lang:{lang}|metric:carb|scorer:moie|" in doc["signature"]


def test_a_wrong_file_is_refused_naming_the_published_sha256(
    cli: RunCli, tmp_path: Path, moie: Path, gold: Path
) -> None:
    wrong = tmp_path / "es_test.tsv"
    wrong.write_bytes((moie / "es_test.tsv").read_bytes() + b"\n")
    refused = cli("benchmark", "add", "carb", wrong, moie / "es_test.input", "--gold-dir", gold)
    assert refused.exit_code == 1
    expected = next(p for p in BENCHMARKS["carb"].published if p.file == "es_test.tsv").sha256
    assert f"is not that of the published es_test.tsv ({expected}" in refused.stderr
    assert not (gold / "carb" / "es").exists()


def test_a_part_without_its_second_file_is_refused(cli: RunCli, moie: Path, gold: Path) -> None:
    refused = cli("benchmark", "add", "carb", moie / "hi_test.tsv", "--gold-dir", gold)
    assert refused.exit_code == 2
    assert "CaRB (hi, test) is added with all its files together: give hi_test.input too" in (
        refused.stderr
    )
    assert not (gold / "carb" / "hi").exists()


def test_a_gold_of_texts_sharing_a_key_is_said(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gold: Path
) -> None:
    """Two gold texts differing only by a space (moie's Telugu gold has such a pair): as
    in the scorer, the last text's tuples are the key's, the first's never scored; said,
    and the sentence count is the keys'."""
    text = "Ana vive en Lima ."
    data = (f"{text}\tvive en\tAna\tLima\n{text.replace(' .', '  .')}\tvive\tAna\n").encode()
    path = tmp_path / "pt_test.tsv"
    path.write_bytes(data)
    sentences = tmp_path / "pt_test.input"
    sentences.write_bytes(f"{text}\n".encode())
    entry = BENCHMARKS["carb"]
    pins = {path.name: data, sentences.name: sentences.read_bytes()}
    counts = {path.name: 2, sentences.name: 1}  # gold texts as read; input lines
    published = tuple(
        p._replace(sha256=_sha(pins[p.file]), size=len(pins[p.file]), sentences=counts[p.file])
        if p.file in pins
        else p
        for p in entry.published
    )
    monkeypatch.setitem(BENCHMARKS, "carb", entry._replace(published=published))
    assert cli("benchmark", "add", "carb", path, sentences, "--gold-dir", gold).exit_code == 0
    system = tmp_path / "pt.carb"
    system.write_text(f"{text}\t<arg1> Ana </arg1> <rel> vive en </rel> <arg2> Lima </arg2>\t-1\n")
    result = cli("score", "--benchmark", "carb", "--lang", "pt", "--gold-dir", gold, system)
    assert result.exit_code == 0, result.stderr
    assert "carb/pt/1.0.0/test/pt_test.tsv: warning: 1 of its sentence texts" in result.stderr
    doc = _score(cli, gold, "--lang", "pt", system)
    assert doc["gold"]["gold_sentences"] == 1
    # the key's tuple is the second text's, "vive" (Ana): all its words match, and the
    # prediction is compared on its relation and arg1 only (2 of 3 words)
    numbers = doc["systems"][0]["carb"]
    assert (numbers["precision"], numbers["recall"]) == (2 / 3, 1.0)


def test_a_split_moie_has_not_is_named(cli: RunCli, tmp_path: Path, gold: Path) -> None:
    result = cli(
        "score",
        "--benchmark",
        "carb",
        "--lang",
        "zh",
        "--split",
        "dev",
        "--gold-dir",
        gold,
        tmp_path / "x.carb",
    )
    assert result.exit_code == 2
    assert "CaRB has no gold of --lang zh and --split dev" in result.stderr


def test_the_suite_has_a_row_of_each_language_added(
    cli: RunCli, tmp_path: Path, moie: Path, gold: Path
) -> None:
    """CaRB's rows of another language, by moie's rules, are those of the language's own
    command; English, not in this store, is skipped as before."""
    _add(cli, moie, gold, "es")
    system = tmp_path / "es.txt"
    system.write_text(
        "".join(
            f"{text}\t{0.9 - n / 10}\t{rel.upper()}\t{arg1}\t{' '.join(rest)}\n"
            for n, (text, rel, arg1, *rest) in enumerate(
                line.split("\t") for line in STAND_INS["es"][0].splitlines()
            )
        ),
        encoding="utf-8",
    )
    single = _score(cli, gold, "--lang", "es", "--metric", "carb,carb-ss", system)
    suite = cli("score", "--suite", "--gold-dir", gold, system, "--format", "json")
    assert suite.exit_code == 0, suite.stderr
    rows = orjson.loads(suite.stdout)["rows"]
    spanish = [r for r in rows if r["benchmark"] == "carb" and r.get("language") == "es"]
    assert [r["metric"] for r in spanish] == ["carb", "carb-ss"]
    for row in spanish:
        numbers = single["systems"][0][row["metric"]]
        assert row[row["metric"]]["f1"] == numbers["f1"]
        assert row[row["metric"]]["auc"] == numbers["auc"]
    assert spanish[0]["signature"] == single["signature"]
    english = [r for r in rows if r["benchmark"] == "carb" and "language" not in r]
    assert all("skipped" in r for r in english)
