"""The CaRB benchmark in the gold store (``gold/carb/<version>/``): ``score --benchmark carb``
gives CaRB's published numbers on its four system outputs, names benchmark, split, version,
metric and hash, refuses gold that differs from its manifest, ``benchie verify`` re-derives its
reports, ``gold info``, ``gold stats`` and ``gold verify`` take ``--benchmark carb``, and ``gold
verify`` covers it; the default benchmark is unchanged."""

from __future__ import annotations

import gzip
import hashlib
import re
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest

from benchie_cli import __version__
from benchie_cli.benchmarks.carb.benchmark import SPLITS
from benchie_cli.registry import BENCHMARKS
from tests.benchmarks.carb.test_carb_metric import CARB, REFERENCE
from tests.conftest import GOLD_DIR, RunCli, example
from tests.gold.test_gold_store import flip_one_byte
from tests.test_verify import edit

CARB_GOLD = GOLD_DIR / "carb" / "1.0.0"
TEST_GOLD = CARB_GOLD / "test" / "carb_test.tsv"


def output(tmp_path: Path, fmt: str) -> Path:
    """CaRB's raw output of the system ``fmt`` on its test set, gunzipped."""
    path = tmp_path / f"{fmt}_output.txt"
    path.write_bytes(gzip.decompress((CARB / f"{fmt}_output.txt.gz").read_bytes()))
    return path


def report(cli: RunCli, *args: str | Path) -> Any:
    result = cli("score", "--benchmark", "carb", "--format", "json", *args)
    assert result.exit_code == 0, result.stderr
    return orjson.loads(result.stdout)


@pytest.mark.parametrize("fmt", list(REFERENCE))
def test_published_numbers(cli: RunCli, tmp_path: Path, fmt: str) -> None:
    """CaRB's AUC and optimal P/R/F1 of each system, unrounded, from the store's gold."""
    _, auc, (p, r, f1), _, points = REFERENCE[fmt]
    doc = report(cli, "--input-format", fmt, output(tmp_path, fmt))
    (system,) = doc["systems"]
    curve = system["carb"].pop("curve")  # (its points: tests/test_curves.py)
    assert len(curve["threshold"]) == points
    assert system["carb"] == {
        "precision": p,
        "recall": r,
        "f1": f1,
        "auc": auc,
        "points": points,
    }


def test_report_names_benchmark_split_version_and_hash(cli: RunCli, tmp_path: Path) -> None:
    sha = hashlib.sha256(TEST_GOLD.read_bytes()).hexdigest()
    doc = report(cli, "--input-format", "openie4", output(tmp_path, "openie4"))
    assert doc["benchmark"] == "carb" and doc["metric"] == "carb"
    assert doc["signature"] == (
        f"benchie|benchmark:carb|split:test|metric:carb|gold:1.0.0@{sha[:12]}|v:{__version__}"
    )
    gold = doc["gold"]
    assert gold["benchmark"] == "carb" and gold["version"] == "1.0.0" and gold["split"] == "test"
    assert gold["files"] == [{"path": "carb/1.0.0/test/carb_test.tsv", "sha256": sha}]
    table = cli(
        "score", "--benchmark", "carb", "--input-format", "openie4", output(tmp_path, "openie4")
    )
    assert table.stdout.rstrip().splitlines()[-1] == doc["signature"]


def test_auto_detects_native_outputs(cli: RunCli, tmp_path: Path) -> None:
    _, auc, *_ = REFERENCE["openie4"]
    doc = report(cli, output(tmp_path, "openie4"))
    assert doc["systems"][0]["carb"]["auc"] == auc


def test_dev_split(cli: RunCli, tmp_path: Path) -> None:
    doc = report(cli, "--split", "dev", "--input-format", "openie4", output(tmp_path, "openie4"))
    assert doc["gold"]["split"] == "dev"
    assert "|split:dev|" in str(doc["signature"])
    assert doc["gold"]["files"][0]["path"] == "carb/1.0.0/dev/carb_dev.tsv"


def test_benchie_tsv_by_sentence_line_number(cli: RunCli, tmp_path: Path) -> None:
    """A BenchIE TSV's sentence ids are line numbers of the split's sentences file: the
    gold's own tuples of sentence 1, given as a submission, are all correct."""
    first = (CARB_GOLD / "test" / "sentences.txt").read_text(encoding="utf-8").splitlines()[0]
    rows = [
        line.split("\t")
        for line in TEST_GOLD.read_text(encoding="utf-8").splitlines()
        if line.split("\t")[0].strip() == first.strip()
    ]
    assert rows
    sub = tmp_path / "mine.tsv"
    sub.write_text("".join(f"1\t{r[2]}\t{r[1]}\t{r[3]}\n" for r in rows), encoding="utf-8")
    doc = report(cli, "--input-format", "benchie", sub)
    carb = doc["systems"][0]["carb"]
    assert carb["precision"] == 1.0 and 0 < carb["recall"] < 0.1


def test_changed_byte_is_refused(cli: RunCli, tmp_path: Path) -> None:
    root = tmp_path / "gold"
    shutil.copytree(GOLD_DIR, root)
    flip_one_byte(root / "carb" / "1.0.0" / "test" / "carb_test.tsv")
    args = ("--input-format", "openie4", output(tmp_path, "openie4"))
    result = cli("score", "--benchmark", "carb", "--gold-dir", root, *args)
    assert result.exit_code == 1 and "differs from its manifest" in result.stderr
    verify = cli("gold", "verify", "--gold-dir", root)
    assert verify.exit_code == 1
    assert f"{root / 'carb' / '1.0.0' / 'test' / 'carb_test.tsv'}: error: sha256" in verify.stderr


def test_changed_manifest_is_not_the_shipped_one(cli: RunCli, tmp_path: Path) -> None:
    root = tmp_path / "gold"
    shutil.copytree(GOLD_DIR, root)
    manifest = root / "carb" / "1.0.0" / "manifest.json"
    manifest.write_bytes(manifest.read_bytes().replace(b"as published", b"as publishd"))
    args = ("--input-format", "openie4", output(tmp_path, "openie4"))
    assert cli("score", "--benchmark", "carb", "--gold-dir", root, *args).exit_code == 1
    assert cli("gold", "verify", "--gold-dir", root).exit_code == 1


def test_manifest_is_pinned() -> None:
    data = (CARB_GOLD / "manifest.json").read_bytes()
    assert hashlib.sha256(data).hexdigest() == BENCHMARKS["carb"].shipped["1.0.0"]
    assert (CARB_GOLD / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "dair-iitd/CaRB" in (CARB_GOLD / "ATTRIBUTION.md").read_text(encoding="utf-8")


def test_verify_and_list_cover_it(cli: RunCli) -> None:
    verify = cli("gold", "verify")
    assert verify.exit_code == 0
    assert "carb 1.0.0: released, shipped with benchie-cli, 4 file(s)" in verify.stdout
    listed = orjson.loads(cli("gold", "list", "--format", "json").stdout)
    assert {"benchmark": "carb", "version": "1.0.0", "released": True, "language": "en",
            "splits": ["test", "dev"]} in listed  # fmt: skip


def test_gold_version_defaults_to_carb_latest(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BenchIE's default gold version (1.1.0, or $BENCHIE_GOLD_VERSION) is not CaRB's."""
    monkeypatch.setenv("BENCHIE_GOLD_VERSION", "1.1.0")
    doc = report(cli, "--input-format", "openie4", output(tmp_path, "openie4"))
    assert doc["gold"]["version"] == "1.0.0"
    bad = cli("score", "--benchmark", "carb", "--gold-version", "9.9.9", output(tmp_path, "props"))
    assert bad.exit_code == 2 and "unknown gold version" in bad.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (("--benchmark", "carb", "--metric", "benchie"), "CaRB's metric only"),
        (("--benchmark", "carb", "--metric", "benchie,carb"), "CaRB's metric only"),
        (("--benchmark", "carb", "--lang", "de"), "in en, es, pt, hi, te, zh only"),
        (("--benchmark", "carb", "--facet", "concat"), "do not apply"),
        (("--split", "dev"), "needs --benchmark carb"),
    ],
)
def test_refused(cli: RunCli, tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = cli("score", *args, output(tmp_path, "openie4"))
    assert result.exit_code == 2 and message in result.stderr, result.stderr


def test_default_benchmark_unchanged(cli: RunCli) -> None:
    plain = cli("score", "--format", "json", example("en", "clausie"))
    explicit = cli("score", "--benchmark", "benchie", "--format", "json", example("en", "clausie"))
    assert plain.exit_code == explicit.exit_code == 0
    assert plain.stdout == explicit.stdout
    assert "benchmark" not in orjson.loads(plain.stdout)


def test_inputs_that_are_not_scores(cli: RunCli, tmp_path: Path) -> None:
    """A wrong format, an empty file, or a file of no sentence of the split reads as nothing
    CaRB could score: an error (exit 2), never a row of 0.0 (or a precision of 1)."""
    openie4 = output(tmp_path, "openie4")
    wrong = cli("score", "--benchmark", "carb", "--input-format", "clausie", openie4)
    assert wrong.exit_code == 2 and "no extraction read as clausie" in wrong.stderr
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    none = cli("score", "--benchmark", "carb", "--input-format", "openie4", empty)
    assert none.exit_code == 2 and "no extraction read as openie4" in none.stderr
    lines = openie4.read_text(encoding="utf-8").splitlines()
    gold_texts = {line.split("\t")[0] for line in TEST_GOLD.read_text("utf-8").splitlines()}
    foreign = tmp_path / "foreign.txt"
    foreign.write_text(
        "".join(ln + "\n" for ln in lines if ln.split("\t")[-1] not in gold_texts), "utf-8"
    )
    outside = cli("score", "--benchmark", "carb", "--input-format", "openie4", foreign)
    assert outside.exit_code == 2
    assert "is a sentence of this CaRB split" in outside.stderr


def test_sentences_outside_the_split_are_said_and_fail_strict(cli: RunCli, tmp_path: Path) -> None:
    """OpenIE 4's published output holds sentences of both splits: scored as CaRB does, with
    a warning naming how many are not in the split; under --strict, an error (exit 1)."""
    openie4 = output(tmp_path, "openie4")
    said = cli("score", "--benchmark", "carb", "--input-format", "openie4", openie4)
    assert said.exit_code == 0
    assert "warning: 2,457 of its sentences are not in CaRB's test split" in said.stderr
    strict = cli("score", "--benchmark", "carb", "--strict", "--input-format", "openie4", openie4)
    assert strict.exit_code == 1 and strict.stdout == ""


def scored(cli: RunCli, tmp_path: Path, *args: str) -> tuple[Path, Path]:
    """A report of ``score --benchmark carb --input-format openie4`` on OpenIE 4's output
    (``args`` added), and that output."""
    out, openie4 = tmp_path / "r.json", output(tmp_path, "openie4")
    result = cli(
        "score", "--benchmark", "carb", "--input-format", "openie4", *args, openie4, "-o", out
    )
    assert result.exit_code == 0, result.stderr
    return out, openie4


@pytest.mark.parametrize("split", SPLITS)
def test_verify_rederives_a_benchmark_report(cli: RunCli, tmp_path: Path, split: str) -> None:
    """Gold version and split from the report, OpenIE 4's reader from its input format."""
    out, openie4 = scored(cli, tmp_path, "--split", split)
    assert orjson.loads(out.read_bytes())["gold"]["split"] == split
    verified = cli("verify", out, openie4)
    assert verified.exit_code == 0, verified.stderr
    assert verified.stdout == f"ok: {out} re-derived byte for byte (1 system(s))\n"
    assert cli("verify", out).exit_code == 0  # the file the report names


def test_verify_names_a_changed_number(cli: RunCli, tmp_path: Path) -> None:
    out, openie4 = scored(cli, tmp_path)
    edit(out, lambda d: d["systems"][0]["carb"].update(f1=0.5))
    result = cli("verify", out, openie4)
    assert result.exit_code == 1
    assert f"{out}: mismatch: systems[0].carb.f1: report 0.5 != re-derived 0.488180" in (
        result.stderr
    )
    assert "1 field(s) differ" in result.stderr


def test_verify_names_a_changed_submission_or_gold_hash(cli: RunCli, tmp_path: Path) -> None:
    out, openie4 = scored(cli, tmp_path)
    openie4.write_bytes(b"".join(openie4.read_bytes().splitlines(keepends=True)[:-3]))
    changed = cli("verify", out, openie4)
    assert changed.exit_code == 1
    assert "systems[0].sha256: report" in changed.stderr
    assert "systems[0].extractions: report 8747 != re-derived 8744" in changed.stderr
    edit(out, lambda d: d["gold"]["files"][0].update(sha256="0" * 64))
    gold = cli("verify", out)  # the report's own file name: the changed bytes again
    assert gold.exit_code == 1
    assert f'gold.files[0].sha256: report "{"0" * 64}" != re-derived' in gold.stderr


def test_verify_refuses_a_version_the_store_lacks_and_gold_file(
    cli: RunCli, tmp_path: Path
) -> None:
    out, openie4 = scored(cli, tmp_path)
    refused = cli("verify", "--gold-file", TEST_GOLD, out, openie4)
    assert refused.exit_code == 2 and "--gold-file does not apply" in refused.stderr
    edit(out, lambda d: d["gold"].update(version="9.9.9"))
    result = cli("verify", out, openie4)
    assert result.exit_code == 2
    sha = hashlib.sha256(TEST_GOLD.read_bytes()).hexdigest()
    assert "no CaRB gold version '9.9.9'" in result.stderr and sha in result.stderr


def test_verify_refuses_another_benchmark(cli: RunCli, tmp_path: Path) -> None:
    out, openie4 = scored(cli, tmp_path)
    edit(out, lambda d: d.update(benchmark="benchie"))
    result = cli("verify", out, openie4)
    assert result.exit_code == 2 and "names the benchmark 'benchie'" in result.stderr


def test_gold_info_shows_carb_latest_version(cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its default is CaRB's latest version, whatever BenchIE's default is."""
    monkeypatch.setenv("BENCHIE_GOLD_VERSION", "1.1.0")
    table = cli("gold", "info", "--benchmark", "carb")
    assert table.exit_code == 0, table.stderr
    title, header, _, *rows = table.stdout.splitlines()
    assert title.startswith("carb gold 1.0.0 (released): CaRB's gold")
    assert header.split() == ["file", "split", "kind", "sha256", "sentences"]
    assert rows[0].split() == [
        "test/carb_test.tsv",
        "test",
        "gold",
        hashlib.sha256(TEST_GOLD.read_bytes()).hexdigest(),
        "634",
    ]
    doc = orjson.loads(cli("gold", "info", "--benchmark", "carb", "--format", "json").stdout)
    assert doc == orjson.loads((CARB_GOLD / "manifest.json").read_bytes())
    explicit = cli("gold", "info", "--benchmark", "carb", "--gold-version", "1.1.0")
    assert explicit.exit_code == 2 and "unknown gold version '1.1.0'" in explicit.stderr


def test_gold_stats_counts_each_split(cli: RunCli) -> None:
    result = cli("gold", "stats", "--benchmark", "carb", "--format", "json")
    assert result.exit_code == 0, result.stderr
    common = {"benchmark": "carb", "version": "1.0.0"}
    assert orjson.loads(result.stdout) == [
        {**common, "split": "test", "sentences": 641, "gold_sentences": 634, "tuples": 2715},
        {**common, "split": "dev", "sentences": 641, "gold_sentences": 638, "tuples": 2548},
    ]
    tuples = sum(1 for _ in TEST_GOLD.read_text(encoding="utf-8").splitlines())
    assert tuples == 2715  # one tuple per gold line, as CaRB's reader reads them
    other = cli("gold", "stats", "--benchmark", "carb", "--lang", "de")
    assert other.exit_code == 2 and "English only" in other.stderr


def test_gold_verify_one_benchmark(cli: RunCli, tmp_path: Path) -> None:
    carb = cli("gold", "verify", "--benchmark", "carb")
    assert carb.exit_code == 0, carb.stderr
    assert carb.stdout.splitlines() == [
        "carb 1.0.0: released, shipped with benchie-cli, 4 file(s)",
        "ok: 4 file(s) in 1 CaRB version(s) match their manifests",
    ]
    one = cli("gold", "verify", "--benchmark", "carb", "--gold-version", "1.0.0")
    assert one.exit_code == 0 and one.stdout == carb.stdout
    missing = cli("gold", "verify", "--benchmark", "carb", "--gold-version", "9.9.9")
    assert missing.exit_code == 2 and "unknown gold version '9.9.9'" in missing.stderr
    root = tmp_path / "gold"
    shutil.copytree(GOLD_DIR, root)
    flip_one_byte(root / "carb" / "1.0.0" / "dev" / "carb_dev.tsv")
    broken = cli("gold", "verify", "--benchmark", "carb", "--gold-dir", root)
    assert broken.exit_code == 1 and "dev/carb_dev.tsv: error: sha256" in broken.stderr
    benchie = cli("gold", "verify", "--benchmark", "benchie", "--gold-dir", root)
    assert benchie.exit_code == 0 and "carb" not in benchie.stdout


@pytest.mark.parametrize("command", ["info", "stats", "verify"])
def test_gold_commands_default_to_benchie_unchanged(cli: RunCli, command: str) -> None:
    plain = cli("gold", command)
    assert plain.exit_code == 0, plain.stderr
    if command == "verify":  # without --benchmark: every benchmark's versions, as before
        assert "carb 1.0.0: released" in plain.stdout
        return
    assert plain.stdout == cli("gold", command, "--benchmark", "benchie").stdout
    assert "carb" not in plain.stdout.splitlines()[0]


@pytest.mark.parametrize(
    "content", [b"1\ta\tb\tc\n", b"a\x00b\tc\n", gzip.compress(b"x\n")], ids=["tsv", "nul", "gz"]
)
def test_a_gzip_file_carb_reads_only_uncompressed_says_so(
    cli: RunCli, tmp_path: Path, content: bytes
) -> None:
    """Gzip-compressed BenchIE TSV (read raw, as every command reads it) or unrecognised
    content: the message says what --benchmark carb reads compressed, not only "decompress
    it" (which it does to system outputs itself)."""
    packed = tmp_path / "x.gz"
    packed.write_bytes(gzip.compress(content))
    result = cli("score", "--benchmark", "carb", packed)
    assert result.exit_code == 2
    assert "BenchIE TSV only uncompressed" in result.stderr


def test_openie5_output_read_as_openie4_is_said(cli: RunCli, tmp_path: Path) -> None:
    """OpenIE 5's output with ``--input-format openie4`` is scored as CaRB's OpenIE 4
    reader reads it (the first argument of each arg2 column), which gives other numbers
    than OpenIE 5's reader: that is said and counted (590 of CaRB's OpenIE 5 lines hold
    several arguments). OpenIE 4's own output gets no such warning, under CaRB or
    OIE2016."""
    five = output(tmp_path, "openie5")
    said = "590 of its lines hold several arguments in the arg2 column (OpenIE 5 writes them so"
    res = cli("score", "--benchmark", "carb", "--input-format", "openie4", five)
    assert res.exit_code == 0 and said in res.stderr
    right = cli("score", "--benchmark", "carb", "--input-format", "openie5", five)
    assert right.exit_code == 0 and "several arguments" not in right.stderr
    oie2016 = cli("score", "--benchmark", "oie2016", "--input-format", "openie4", five)
    assert said in oie2016.stderr
    four = output(tmp_path, "openie4")
    for benchmark in ("carb", "oie2016"):
        res = cli("score", "--benchmark", benchmark, "--input-format", "openie4", four)
        assert res.exit_code == 0 and "several arguments" not in res.stderr


@pytest.mark.parametrize("benchmark", ["carb", "oie2016", "oie2016-2018", "suite"])
def test_auto_tells_openie4_from_openie5_by_the_whole_file(
    cli: RunCli, tmp_path: Path, benchmark: str
) -> None:
    """OpenIE 4 writes several arguments in one column too (supervised-oie's OpenIE 4
    outputs of Mesquita et al.'s corpora have 31 and 188 such lines), and the original
    scorers' OpenIE 4 readers keep only the first of them, OpenIE 5's all: ``auto`` once
    read such a file as OpenIE 5's and gave numbers no original gives for OpenIE 4's
    output. Now a ``List(null)`` offset anywhere, which only OpenIE 5 writes, names OpenIE
    5 (here on the 40th line, past the lines detection peeks at); several arguments
    without one are refused at their first line, naming both formats; a file with neither
    is OpenIE 4's. The file is CaRB's OpenIE 4 output with lines rewritten."""
    lines = output(tmp_path, "openie4").read_bytes().splitlines(keepends=True)[:400]
    several = [i for i, line in enumerate(lines) if line.count(b"\t") == 5][30]
    cols = lines[several].split(b"\t")
    cols[4] = cols[4] + b"; TemporalArgument(in 1990,List([0, 7)))"
    ambiguous = [*lines[:several], b"\t".join(cols), *lines[several + 1 :]]
    null = list(ambiguous)
    null[39] = re.sub(rb"List\(\[[^)]*\)\)", b"List(null)", null[39], count=1)
    assert b"List(null)" in null[39] and b"List(null)" not in b"".join(null[:20])
    args = ["--suite"] if benchmark == "suite" else ["--benchmark", benchmark]
    files = {}
    for name, content in (("ambiguous", ambiguous), ("null", null), ("plain", lines)):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_bytes(b"".join(content))
    refused = cli("score", *args, files["ambiguous"])
    assert refused.exit_code == 2, refused.stderr
    assert f"ambiguous.txt:{several + 1}: error: OpenIE 4's output or OpenIE 5's?" in refused.stderr
    assert "give --input-format openie4 or openie5" in refused.stderr
    if benchmark != "suite":
        from benchie_cli.benchmarks.corpus import detect_format

        assert detect_format(b"".join(null), "null") == "openie5"
        assert detect_format(b"".join(lines), "plain") == "openie4"
    assert cli("score", *args, files["null"]).exit_code == 0
    in_text = list(ambiguous)  # the mark in a sentence's text is no offset: still refused
    in_text[39] = in_text[39].rstrip(b"\n") + b" List(null)\n"
    files["in_text"] = tmp_path / "in_text.txt"
    files["in_text"].write_bytes(b"".join(in_text))
    assert cli("score", *args, files["in_text"]).exit_code == 2
    for fmt in ("openie4", "openie5"):  # (named, it is read as named)
        named = cli("score", *args, "--input-format", fmt, files["ambiguous"])
        assert named.exit_code == 0, named.stderr
        assert ("several arguments" in named.stderr) == (fmt == "openie4")


def test_several_arguments_counts_what_openie5_readers_split() -> None:
    """The arg2 column is split at ``);`` as OpenIE 5's readers split it, with or without a
    space after; every part must be an argument (``Kind(text,List(...``), so an argument
    whose text holds ``,List(`` is one argument; a line a reader skips (an empty slot)
    does not count; one line is "holds"."""
    from benchie_cli.benchmarks.corpus import several_arguments

    def line(arg2: str, arg1: str = "SimpleArgument(a,List([0, 1)))") -> bytes:
        return f"0.9\t\t{arg1}\tRelation(r,List([2, 3)))\t{arg2}\ts .\n".encode()

    two = "SimpleArgument(b,List([4, 5))); TemporalArgument(c,List([6, 7)))"
    said = several_arguments(line(two), "openie4")
    assert said is not None and said.startswith("1 of its lines holds several arguments")
    assert several_arguments(line(two.replace("); ", ");")) * 3, "openie4") is not None
    assert several_arguments(line(two.replace("); ", ");")) * 3, "openie4").startswith("3 of")
    one = "SimpleArgument(x,List(1),List([21, 30)))"
    assert several_arguments(line(one) + line("SimpleArgument(y); z,List(2)"), "openie4") is None
    assert several_arguments(line(two, arg1=""), "openie4") is None  # (skipped by the reader)
    assert several_arguments(line(two), "openie5") is None
