"""``score --benchmark NAME --gold-file FILE``: a user's own gold in the benchmark's own gold
format (CaRB's tsv, OIE2016's ``.oie``, Re-OIE2016's and WiRe57's JSON), scored as the
store's gold is, hashed into the report, and re-derived by ``verify --gold-file``.

The store's own gold given as a file must give the store's numbers (the same bytes, read by
the same reader); a hand-made gold checks the Re-OIE2016 and WiRe57 readers, which have no
shipped gold.
"""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from benchie_cli.benchmarks.reoie2016 import metric as reoie2016
from benchie_cli.benchmarks.wire57 import metric as wire57
from tests.benchmarks.test_benchmark_add import REOIE, WIRE
from tests.conftest import DATA, GOLD_DIR, RunCli

#: benchmark -> (the store's gold of a split as a file, that split, a system file, its format)
SHIPPED = {
    "oie2016": (
        GOLD_DIR / "oie2016" / "2.0.0" / "test" / "test.oie",
        "test",
        DATA / "oie2016" / "openie4_output.txt.gz",
        "openie4",
    ),
    "carb": (
        GOLD_DIR / "carb" / "1.0.0" / "test" / "carb_test.tsv",
        "test",
        DATA / "carb" / "openie4_output.txt.gz",
        "openie4",
    ),
}


def _report(cli: RunCli, out: Path, *args: object) -> dict[str, object]:
    result = cli("score", *args, "-o", out)
    assert result.exit_code == 0, result.stderr
    return orjson.loads(out.read_bytes())  # type: ignore[no-any-return]


def _numbers(report: dict[str, object]) -> list[object]:
    """The systems' numbers, without what names the gold's sentences by id."""
    return [
        {k: v for k, v in s.items() if k != "unknown_sentence_ids"}
        for s in report["systems"]  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize("benchmark", sorted(SHIPPED))
def test_the_store_s_gold_as_a_file_gives_the_store_s_numbers(
    cli: RunCli, tmp_path: Path, benchmark: str
) -> None:
    gold, split, system, fmt = SHIPPED[benchmark]
    common = ("--benchmark", benchmark, "--input-format", fmt, system)
    store = _report(cli, tmp_path / "s.json", "--split", split, *common)
    own = _report(cli, tmp_path / "f.json", "--gold-file", gold, *common)
    assert _numbers(own) == _numbers(store)
    files = own["gold"]["files"]  # type: ignore[index]
    assert own["gold"]["version"] == own["gold"]["split"] == "file"  # type: ignore[index]
    assert files[0]["path"] == str(gold)  # as given
    assert files[0]["sha256"] == store["gold"]["files"][0]["sha256"]  # type: ignore[index]
    signature = str(own["signature"])
    assert f"|split:file|metric:{benchmark}|" in signature
    assert f"|gold:file@{files[0]['sha256'][:12]}|" in signature
    verified = cli("verify", "--gold-file", gold, tmp_path / "f.json", system)
    assert verified.exit_code == 0, verified.stderr
    # without the file, or with another, it is not re-derived
    missing = cli("verify", tmp_path / "f.json", system)
    assert missing.exit_code == 2
    assert f"scored with --gold-file {gold}: give --gold-file" in missing.stderr
    other = tmp_path / "other"
    other.write_bytes(gold.read_bytes().split(b"\n", 40)[-1])  # the first 40 lines dropped
    changed = cli("verify", "--gold-file", other, tmp_path / "f.json", system)
    assert changed.exit_code == 1
    assert "gold.files[0].sha256: report" in changed.stderr
    # a store report is not re-derived from a file
    refused = cli("verify", "--gold-file", gold, tmp_path / "s.json", system)
    assert refused.exit_code == 2 and "--gold-file does not apply" in refused.stderr


@pytest.mark.parametrize("benchmark", ["oie2016", "carb", "reoie2016", "wire57"])
@pytest.mark.parametrize("option", [("--split", "test"), ("--gold-version", "1.0.0")])
def test_a_gold_file_is_scored_whole(
    cli: RunCli, tmp_path: Path, benchmark: str, option: tuple[str, str]
) -> None:
    gold = tmp_path / "g"
    gold.write_text("x\n")
    result = cli("score", "--benchmark", benchmark, "--gold-file", gold, *option, "s.tsv")
    assert result.exit_code == 2
    assert f"give --gold-file (your own gold, scored whole) or {option[0]}" in result.stderr


@pytest.mark.parametrize(
    ("benchmark", "content", "message"),
    [
        ("oie2016", "a sentence\tverb\n", "g:1: error: need sentence<TAB>base verb<TAB>predicate"),
        ("oie2016", "", "g: error: no gold tuple in it: not OIE2016's gold format?"),
        ("carb", "", "g: error: no gold tuple in it: not CaRB's gold format"),
        ("reoie2016", '{\n  "a": [1,\n', "g:3: error: not JSON"),
        ("reoie2016", "{}", "g: error: no gold tuple in it: not Re-OIE2016's gold format?"),
        ("wire57", "[]", "g: error: "),
    ],
)
def test_a_gold_file_it_cannot_read_is_located(
    cli: RunCli, tmp_path: Path, benchmark: str, content: str, message: str
) -> None:
    gold = tmp_path / "g"
    gold.write_text(content)
    system = tmp_path / "s.tsv"
    system.write_text("A b .\t1.0\tb\tA\n")
    result = cli(
        "score", "--benchmark", benchmark, "--gold-file", gold, "--input-format", "carb", system
    )
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr.replace(str(tmp_path) + "/", "")
    assert "Traceback" not in result.stderr


def test_reoie2016_and_wire57_own_gold_score_as_their_metrics(cli: RunCli, tmp_path: Path) -> None:
    gold = tmp_path / "reoie.json"
    gold.write_text(json.dumps(REOIE))
    system = tmp_path / "s.tsv"
    system.write_text(
        "Ann likes Bob , a teacher .\t0.9\tlikes\tAnn\tBob\nCarl sleeps .\t0.4\tsnores\tCarl\n"
    )
    report = _report(
        cli, tmp_path / "r.json", "--benchmark", "reoie2016", "--gold-file", gold, system
    )
    result = reoie2016.score(
        reoie2016.read_gold_json(str(gold)), reoie2016.read_system(str(system))
    )
    expected = {**reoie2016.to_json(result), "curve": reoie2016.curve_of(result).as_json()}
    assert report["systems"][0]["reoie2016"] == json.loads(json.dumps(expected))  # type: ignore[index]
    assert cli("verify", "--gold-file", gold, tmp_path / "r.json", system).exit_code == 0
    # OIE2016's text gold (the scorer's `old` mode), told by its content, not its name
    text = tmp_path / "OIE2016"
    text.write_text(
        "Ann likes Bob , a teacher .\tlikes\tlikes\tAnn\tBob\nCarl sleeps .\tsleeps\tsleeps\tCarl\n"
    )
    old = _report(cli, tmp_path / "o.json", "--benchmark", "reoie2016", "--gold-file", text, system)
    result = reoie2016.score(
        reoie2016.read_gold_text(str(text)), reoie2016.read_system(str(system))
    )
    expected = {**reoie2016.to_json(result), "curve": reoie2016.curve_of(result).as_json()}
    assert old["systems"][0]["reoie2016"] == json.loads(json.dumps(expected))  # type: ignore[index]
    assert expected != report["systems"][0]["reoie2016"]  # (another gold, other numbers)
    assert cli("verify", "--gold-file", text, tmp_path / "o.json", system).exit_code == 0
    braced = tmp_path / "braced"  # a text gold whose first sentence begins with "{"
    braced.write_text("{ Ann } likes Bob .\tlikes\tlikes\t{ Ann }\tBob\n" + text.read_text())
    assert _report(
        cli, tmp_path / "b.json", "--benchmark", "reoie2016", "--gold-file", braced, system
    )
    array = tmp_path / "array"
    array.write_text("[]")
    res = cli("score", "--benchmark", "reoie2016", "--gold-file", array, system)
    assert res.exit_code == 2 and "the gold must be a JSON object" in res.stderr, res.stderr

    reference = tmp_path / "wire.json"
    reference.write_text(json.dumps(WIRE))
    refused = cli("score", "--benchmark", "wire57", "--gold-file", reference, system)
    assert refused.exit_code == 2
    assert "wire.json: error: 1 sentence(s) without a tuple (first: id 'A 2')" in refused.stderr
    with_tuples = {"doc A": WIRE["doc A"][:1], "doc B": WIRE["doc B"]}
    reference.write_text(json.dumps(with_tuples))
    lines = tmp_path / "w.tsv"
    lines.write_text("Tokyo is the capital of Japan .\t1.0\tis the capital of\tTokyo\tJapan\n")
    report = _report(
        cli, tmp_path / "w.json", "--benchmark", "wire57", "--gold-file", reference, lines
    )
    numbers = report["systems"][0]["wire57"]  # type: ignore[index]
    gold = wire57.read_reference(str(reference))
    predicted = {"A 1": [wire57.Predicted("Tokyo", "is the capital of", "Japan", ())]}
    assert numbers == wire57.to_json(wire57.system_score(gold, predicted))
    assert numbers["recall"] == pytest.approx(1 / 3)  # one of three reference tuples


def test_a_gold_file_whose_json_repeats_a_key_is_refused(cli: RunCli, tmp_path: Path) -> None:
    """A reader keeps the last value of a repeated key (as the original's ``json.load``):
    in one's own gold that silently drops the first one's tuples, so it is refused."""
    gold = tmp_path / "g.json"
    first = json.dumps(REOIE)[:-1]
    gold.write_text(first + ', "Carl sleeps .": []}')
    system = tmp_path / "s.tsv"
    system.write_text("Carl sleeps .\t0.5\tsleeps\tCarl\n")
    result = cli("score", "--benchmark", "reoie2016", "--gold-file", gold, system)
    assert result.exit_code == 2
    assert "g.json: error: 1 JSON key(s) given more than once (first: 'Carl sleeps .')" in (
        result.stderr
    )


def test_a_system_output_given_as_carb_gold_is_refused(cli: RunCli, tmp_path: Path) -> None:
    tagged = tmp_path / "out.carb"
    tagged.write_text("A b c .\t<arg1> A </arg1> <rel> b </rel> <arg2> c </arg2>\t-1.0\n")
    result = cli("score", "--benchmark", "carb", "--gold-file", tagged, tagged)
    assert result.exit_code == 2
    assert "its lines are tagged extractions" in result.stderr


def test_the_gold_scored_as_its_own_submission_is_refused(cli: RunCli, tmp_path: Path) -> None:
    """Lines that read both as CaRB's gold and as a CaRB-tab system output (a relation that
    looks like a confidence): the same bytes on both sides are refused, not scored 1.0."""
    gold = tmp_path / "gold.tsv"
    gold.write_text("A b c .\t0.5\tb\tA\tc\n")
    copy = tmp_path / "copy.tsv"
    copy.write_bytes(gold.read_bytes())
    result = cli(
        "score", "--benchmark", "carb", "--gold-file", gold, "--input-format", "carb", copy
    )
    assert result.exit_code == 2
    assert "copy.tsv: error: it is the gold itself" in result.stderr


def test_a_part_directory_that_is_a_file_is_named(cli: RunCli, tmp_path: Path) -> None:
    """Not "missing, add it" (the add would then fail): what is in the way, and the fix."""
    root = tmp_path / "gold"
    (root / "reoie2016").mkdir(parents=True)
    (root / "reoie2016" / "es").write_text("x\n")
    system = tmp_path / "s.tsv"
    system.write_text("Carl sleeps .\t0.5\tsleeps\tCarl\n")
    result = cli("score", "--benchmark", "reoie2016", "--lang", "es", "--gold-dir", root, system)
    assert result.exit_code == 2
    assert f"{root / 'reoie2016' / 'es'}: error: not a directory" in result.stderr
    assert "add the published files again" in result.stderr
