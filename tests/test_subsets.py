"""Subsets, declared (issue 26, docs/subsets.md): ``score --sentences FILE`` scores the gold
sentences FILE lists alone, names the subset in the signature and the report, refuses a line
that names no gold sentence, and ``verify`` re-derives it.

The exactness test is CaRB's own scorer run on gold and predictions cut to 50 sentences
(tests/data/carb/subset50/README.md); the general rule is checked as properties: a subset run
equals the run on the gold file and the output cut to the subset (CaRB), and BenchIE's counts
over a subset are the sums of the whole run's per-sentence counts."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from benchie_cli.benchmarks.carb.metric import sentence_key
from tests.conftest import DATA, EXAMPLES, RunCli

CARB = DATA / "carb"
SUBSET = CARB / "subset50"
IDS = SUBSET / "carb_test_50.ids"


def _unzipped(source: Path, target: Path) -> Path:
    target.write_bytes(gzip.decompress(source.read_bytes()))
    return target


def _sentences(cli: RunCli, *args: str) -> list[tuple[str, str]]:
    result = cli("sentences", "--format", "jsonl", *args)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    return [(r["sent_id"], r["sentence"]) for r in rows]


@pytest.mark.parametrize("system", ["OpenIE-4", "OpenIE-5"])
def test_a_carb_subset_is_carbs_scorer_on_the_cut_files_byte_for_byte(
    cli: RunCli, tmp_path: Path, system: str
) -> None:
    """The curve CaRB's scorer wrote of the inputs cut to 50 sentences is the one benchie
    writes of the whole files with --sentences, byte for byte, and the report's numbers
    are that curve's."""
    source = CARB / f"{system.lower().replace('-', '')}_output.txt.gz"
    curves = tmp_path / "curves"
    curves.mkdir()
    report = tmp_path / "r.json"
    result = cli(
        "score", "--benchmark", "carb", "--split", "test", "--sentences", IDS,
        "--input-format", system.lower().replace("-", ""), "--curves", curves,
        "-o", report, f"{system}={source}",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (curves / f"{system}.dat").read_bytes() == (SUBSET / f"{system}.dat").read_bytes()
    data = json.loads(report.read_text())
    sha = hashlib.sha256(IDS.read_bytes()).hexdigest()
    assert data["subset"] == {"file": str(IDS), "sha256": sha, "sentences": 50}
    assert f"|subset:50@{sha[:12]}|" in data["signature"]
    numbers = data["systems"][0]["carb"]
    printed = {"OpenIE-4": (0.259, 0.513, 0.432, 0.469), "OpenIE-5": (0.246, 0.472, 0.428, 0.449)}
    auc, p, r, f1 = printed[system]  # what CaRB's scorer printed (README.md)
    assert (round(numbers["auc"], 3), round(numbers["precision"], 3)) == (auc, p)
    assert (round(numbers["recall"], 3), round(numbers["f1"], 3)) == (r, f1)
    assert "not scored" in result.stderr  # the other sentences' extractions are said


def test_a_subset_by_text_scores_as_by_id(cli: RunCli, tmp_path: Path) -> None:
    """Ids and texts name the same sentences: the same numbers, under each file's hash."""
    texts = dict(_sentences(cli, "--benchmark", "carb", "--split", "test"))
    by_text = tmp_path / "texts.txt"
    by_text.write_text("".join(f"  {texts[i]}\n\n" for i in IDS.read_text().split()))
    source = CARB / "openie4_output.txt.gz"
    runs = []
    for listed in (IDS, by_text):
        out = tmp_path / f"{listed.name}.json"
        args = ["score", "--benchmark", "carb", "--sentences", listed, "-o", out, source]
        assert cli(*args).exit_code == 0
        runs.append(json.loads(out.read_text()))
    assert runs[0]["systems"][0]["carb"] == runs[1]["systems"][0]["carb"]
    assert runs[1]["subset"]["sentences"] == 50
    assert runs[0]["subset"]["sha256"] != runs[1]["subset"]["sha256"]


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(picks=st.sets(st.integers(min_value=0, max_value=633), min_size=1, max_size=40))
@example(picks={488})  # OpenIE 4's one line of it gives no extraction
def test_carb_on_a_subset_is_carb_on_the_files_cut_to_it(
    cli: RunCli, tmp_path_factory: pytest.TempPathFactory, picks: set[int]
) -> None:
    """For any subset, --sentences gives the numbers and curve of the gold file and the
    system output cut to the subset's sentences (what the original scorer would be run on)."""
    tmp = tmp_path_factory.mktemp("cut")
    gold_lines = gzip.decompress((CARB / "gold_test.tsv.gz").read_bytes()).decode().splitlines()
    sentences = list(dict.fromkeys(line.split("\t")[0] for line in gold_lines))
    chosen = [sentences[i] for i in sorted(picks)]
    keys = {sentence_key(s) for s in chosen}
    listed = tmp / "subset.txt"
    listed.write_text("".join(f"{s}\n" for s in chosen))
    cut_gold = tmp / "gold.tsv"
    cut_gold.write_text(
        "".join(f"{line}\n" for line in gold_lines if sentence_key(line.split("\t")[0]) in keys)
    )
    system = gzip.decompress((CARB / "openie4_output.txt.gz").read_bytes()).decode()
    cut_system = tmp / "cut.txt"
    kept = [
        x for x in system.splitlines(True) if sentence_key(x.rstrip("\n").split("\t")[-1]) in keys
    ]
    if not kept:
        return  # OpenIE 4 extracted nothing from these sentences: nothing to compare
    cut_system.write_text("".join(kept))
    whole = tmp / "whole.txt"
    whole.write_text(system)
    common = ["score", "--benchmark", "carb", "--input-format", "openie4"]
    a, b = tmp / "a.json", tmp / "b.json"
    subset_run = cli(*common, "--sentences", listed, "-o", a, f"s={whole}")
    cut_run = cli(*common, "--gold-file", cut_gold, "-o", b, f"s={cut_system}")
    if cut_run.exit_code == 2 and "no extraction read" in cut_run.stderr:
        # its lines of these sentences give no extraction (an empty slot): both refuse
        assert subset_run.exit_code == 2, subset_run.output
        assert "a line that gives no extraction names no sentence" in subset_run.stderr
        return
    assert subset_run.exit_code == 0, subset_run.output
    assert cut_run.exit_code == 0, cut_run.output
    ours, theirs = json.loads(a.read_text()), json.loads(b.read_text())
    assert ours["systems"][0]["carb"] == theirs["systems"][0]["carb"]


def test_benchie_counts_over_a_subset_are_the_sums_of_its_sentences(
    cli: RunCli, tmp_path: Path
) -> None:
    """BenchIE's counts add up by sentence: over a subset they are the whole run's
    per-sentence counts summed over its sentences."""
    listed = tmp_path / "ids.txt"
    ids = [str(n) for n in range(3, 300, 7)]
    listed.write_text("\n".join(ids) + "\n")
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    common = ["score", "--lang", "en", "--per-sentence", EXAMPLES / "en"]
    assert cli(*common, "-o", whole).exit_code == 0
    result = cli(*common, "--sentences", listed, "-o", part)
    assert result.exit_code == 0, result.output
    full = {s["name"]: s for s in json.loads(whole.read_text())["systems"]}
    for system in json.loads(part.read_text())["systems"]:
        rows = {row["sent_id"]: row for row in full[system["name"]]["per_sentence"]}
        for count in ("tp", "fp", "fn"):
            assert system[count] == sum(rows[i][count] for i in ids), (system["name"], count)
        assert [row["sent_id"] for row in system["per_sentence"]] == ids
        assert system["outside_subset"] > 0


def test_every_sentence_as_a_subset_changes_no_number(cli: RunCli, tmp_path: Path) -> None:
    """A subset of all the gold's sentences scores as no subset: only the signature and
    the report's ``subset`` differ."""
    listed = tmp_path / "all.txt"
    items = _sentences(cli, "--benchmark", "oie2016", "--split", "test")
    listed.write_text("".join(f"{i}\n" for i, _ in items))
    source = DATA / "oie2016" / "openie4_output.txt.gz"
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    common = ["score", "--benchmark", "oie2016", "--split", "test", source]
    assert cli(*common, "-o", a).exit_code == 0
    assert cli(*common, "--sentences", listed, "-o", b).exit_code == 0
    whole, subset = json.loads(a.read_text()), json.loads(b.read_text())
    assert whole["systems"][0]["oie2016"] == subset["systems"][0]["oie2016"]
    assert subset["subset"]["sentences"] == len(items) == 603
    assert "subset" not in whole and "|subset:" not in whole["signature"]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (b"12\nno such sentence\n", "ids.txt:2: error: not a sentence of CaRB's test split"),
        (b"12\n24\n12\n", "ids.txt:3: error: repeats line 1"),
        (b"\n \n", "ids.txt: error: no sentence in it"),
        (b"12\n\xff\n", "ids.txt:2: error: not valid UTF-8"),
    ],
)
def test_a_bad_subset_file_is_refused_with_its_line(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: bytes, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("ids.txt").write_bytes(lines)
    report = tmp_path / "r.json"
    result = cli(
        "score", "--benchmark", "carb", "--sentences", "ids.txt", "-o", report,
        CARB / "openie4_output.txt.gz",
    )  # fmt: skip
    assert result.exit_code == 2
    assert message in result.stderr
    assert not report.exists()


def test_one_sentence_named_twice_is_refused(cli: RunCli, tmp_path: Path) -> None:
    texts = dict(_sentences(cli, "--benchmark", "carb", "--split", "test"))
    listed = tmp_path / "ids.txt"
    listed.write_text(f"12\n{texts['12']}\n")
    result = cli(
        "score", "--benchmark", "carb", "--sentences", listed, CARB / "openie4_output.txt.gz"
    )
    assert result.exit_code == 2
    assert "ids.txt:2: error: names the sentence line 1 names (id 12)" in result.stderr


def test_a_subset_of_other_sentences_scores_nothing_and_says_so(
    cli: RunCli, tmp_path: Path
) -> None:
    """A file none of whose extractions is of the subset's sentences is no score (exit 2)."""
    listed = tmp_path / "ids.txt"
    listed.write_text("1\n")
    system = tmp_path / "one.tsv"
    system.write_text("2\ta\tb\tc\n")
    result = cli("score", "--lang", "en", "--sentences", listed, system)
    assert result.exit_code == 2
    assert "none of its 1 extractions is of the 1 sentences of" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--suite"], "--sentences does not apply"),
        (["--metric", "benchie,carb"], "--benchmark carb --sentences FILE"),
    ],
)
def test_sentences_is_refused_where_it_has_no_meaning(
    cli: RunCli, tmp_path: Path, args: list[str], message: str
) -> None:
    listed = tmp_path / "ids.txt"
    listed.write_text("1\n")
    result = cli("score", *args, "--sentences", listed, EXAMPLES / "en" / "clausie.tsv")
    assert result.exit_code == 2
    assert message in result.stderr


def test_the_subset_and_a_submission_cannot_both_be_stdin(cli: RunCli) -> None:
    result = cli("score", "--benchmark", "carb", "--sentences", "-", "-", input="12\n")
    assert result.exit_code == 2
    assert "--sentences - reads standard input" in result.stderr


def test_verify_rederives_a_subset_and_refuses_another_file(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    system = _unzipped(CARB / "openie4_output.txt.gz", tmp_path / "openie4.txt")
    Path("ids.txt").write_bytes(IDS.read_bytes())
    assert (
        cli(
            "score", "--benchmark", "carb", "--sentences", "ids.txt", "-o", "r.json", system
        ).exit_code
        == 0
    )
    ok = cli("verify", "r.json")  # the subset's file as the report names it
    assert ok.exit_code == 0, ok.output
    assert cli("verify", "r.json", "--sentences", IDS).exit_code == 0  # the same bytes
    Path("other.txt").write_text("12\n")
    other = cli("verify", "r.json", "--sentences", "other.txt")
    assert other.exit_code == 2
    assert "other.txt: error: not the report's subset file" in other.stderr
    Path("ids.txt").unlink()
    gone = cli("verify", "r.json")
    assert gone.exit_code == 2
    assert "give that file with --sentences" in gone.stderr
    assert cli("score", "--benchmark", "carb", "-o", "w.json", system).exit_code == 0
    whole = cli("verify", "w.json", "--sentences", IDS)
    assert whole.exit_code == 2
    assert "--sentences does not apply" in whole.stderr


def test_a_tampered_subset_count_is_found(cli: RunCli, tmp_path: Path) -> None:
    """The report's subset is re-derived, not copied: an edited count is a mismatch."""
    listed = tmp_path / "ids.txt"
    listed.write_text("1\n2\n3\n")
    report = tmp_path / "r.json"
    clausie = EXAMPLES / "en" / "clausie.tsv"
    assert cli("score", "--lang", "en", "--sentences", listed, "-o", report, clausie).exit_code == 0
    data = json.loads(report.read_text())
    data["subset"]["sentences"] = 300
    report.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    result = cli("verify", report)
    assert result.exit_code == 1
    assert "subset.sentences" in result.stderr


def test_wire57_a_subset_is_the_reference_and_export_cut_to_it(cli: RunCli, tmp_path: Path) -> None:
    """WiRe57's gold is keyed by sentence id: a subset named by id or by text scores as
    the reference and the export cut to those sentences (every system of the export)."""
    from tests.benchmarks.wire57.test_wire57 import EXPORT, REFERENCE

    whole_ref, whole_exp = tmp_path / "ref.json", tmp_path / "exp.json"
    whole_ref.write_text(json.dumps(REFERENCE))
    whole_exp.write_text(json.dumps(EXPORT))
    kept = ["D 2", "D 3"]
    cut_ref, cut_exp = tmp_path / "cut-ref.json", tmp_path / "cut-exp.json"
    cut_ref.write_text(json.dumps({"D": [s for s in REFERENCE["D"] if s["id"] in kept]}))
    cut_exp.write_text(json.dumps({k: v for k, v in EXPORT.items() if k in kept}))
    by_id, by_text = tmp_path / "ids.txt", tmp_path / "texts.txt"
    by_id.write_text("D 3\nD 2\n")
    by_text.write_text("Carl , born in Lyon .\nBob   sleeps .\n")
    common = ["--benchmark", "wire57"]
    cut = _report(cli, tmp_path / "cut.json", *common, "--gold-file", cut_ref, cut_exp)
    for listed in (by_id, by_text):
        out = tmp_path / f"{listed.stem}.json"
        ours = _report(
            cli, out, *common, "--gold-file", whole_ref, "--sentences", listed, whole_exp
        )
        assert [s["wire57"] for s in ours["systems"]] == [s["wire57"] for s in cut["systems"]]
        assert ours["subset"]["sentences"] == 2
        verified = cli("verify", "--gold-file", whole_ref, out, whole_exp, whole_exp)
        assert verified.exit_code == 0, verified.output


def _report(cli: RunCli, out: Path, *args: object) -> dict[str, object]:
    result = cli("score", *args, "-o", out)
    assert result.exit_code == 0, result.stderr
    data: dict[str, object] = json.loads(out.read_text())
    return data


def test_strict_refuses_benchies_extractions_outside_the_subset_as_carbs(
    cli: RunCli, tmp_path: Path
) -> None:
    """--strict makes every warning an error: the extractions of gold sentences the subset
    leaves out fail a BenchIE run (exit 1) as they fail a CaRB run, and the warning says so."""
    listed = tmp_path / "five.ids"
    listed.write_text("1\n2\n3\n4\n5\n")
    submission = EXAMPLES / "en" / "clausie.tsv"
    args = ["score", "--lang", "en", "--sentences", listed, submission]
    warned = cli(*args)
    assert warned.exit_code == 0, warned.output
    assert "leaves out: not scored (an error under --strict)" in warned.stderr
    strict = cli(*args, "--strict")
    assert strict.exit_code == 1, strict.output
    assert "leaves out: not scored (an error under --strict)" in strict.stderr


@pytest.mark.parametrize("fmt", ["tsv", "jsonl"])
def test_a_whole_line_of_benchie_sentences_is_refused_saying_what_to_give(
    cli: RunCli, tmp_path: Path, fmt: str
) -> None:
    """The page's first command writes `benchie sentences --format jsonl`; a line of it (or
    of tsv) given as it is names no sentence, and the message says to give the id or the
    text alone."""
    printed = cli("sentences", "--benchmark", "carb", "--split", "test", "--format", fmt)
    listed = tmp_path / f"five.{fmt}"
    listed.write_text("".join(printed.stdout.splitlines(keepends=True)[:5]))
    result = cli(
        "score", "--benchmark", "carb", "--sentences", listed, CARB / "openie4_output.txt.gz"
    )
    assert result.exit_code == 2, result.output
    assert f"{listed}:1: error: not a sentence of CaRB's test split" in result.stderr
    assert "give the id alone or the text alone" in result.stderr


def test_sentences_written_to_a_file_are_named_on_stderr(cli: RunCli, tmp_path: Path) -> None:
    """`sentences -o FILE` says what it wrote, as `score -o` does: a run that ends in silence
    hides a mistyped path; to standard output it says nothing beside the sentences."""
    target = tmp_path / "carb_test.txt"
    written = cli("sentences", "--benchmark", "carb", "--split", "test", "-o", target)
    assert written.exit_code == 0, written.output
    assert written.stderr == f"benchie: wrote {target} (txt: 641 sentence(s))\n"
    assert len(target.read_text().splitlines()) == 641
    printed = cli("sentences", "--benchmark", "carb", "--split", "test")
    assert printed.stderr == ""
    assert printed.stdout == target.read_text()
