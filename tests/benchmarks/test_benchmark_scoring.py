"""``score --benchmark oie2016|reoie2016|wire57``, ``--metric A,B`` and ``score --suite``
(issue 15): each benchmark's numbers through the CLI are its metric module's, which the
metric tests pin to the original scorers (test_oie2016.py, test_reoie2016.py,
test_wire57.py, test_carb_ss.py); these tests pin the wiring: the gold the store serves,
formats, refusals, reports, ``verify``, and the suite's rows against the single commands.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from benchie_cli.benchmarks.reoie2016 import metric as reoie2016
from benchie_cli.benchmarks.wire57 import metric as wire57
from benchie_cli.errors import ExitCode
from tests.benchmarks.test_benchmark_add import NAMES, STAND_INS, WIRE, pin, stand_in  # noqa: F401 (fixtures)
from tests.conftest import DATA, GOLD_DIR, RunCli

OIE2016_DATA = DATA / "oie2016"
CARB_DATA = DATA / "carb"

#: OIE2016's published curve of OpenIE 4 (docs/oie2016.md): its AUC and point of best F1.
OPENIE4_AUC = 0.47045760823440413
OPENIE4_BEST = (0.6392921960072595, 0.6645442754392171, 0.6516737006417299)


def _json(cli: RunCli, out: Path, *args: object) -> dict[str, object]:
    result = cli("score", *args, "-o", out)
    assert result.exit_code == 0, result.stderr
    return orjson.loads(out.read_bytes())  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- OIE2016


def test_oie2016_scores_the_published_curve_of_openie4(cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    report = _json(
        cli,
        out,
        "--benchmark",
        "oie2016",
        "--input-format",
        "openie4",
        OIE2016_DATA / "openie4_output.txt.gz",
    )
    (system,) = report["systems"]  # type: ignore[misc]
    numbers = system["oie2016"]
    assert numbers["auc"] == OPENIE4_AUC
    assert (numbers["precision"], numbers["recall"], numbers["f1"]) == OPENIE4_BEST
    assert report["signature"] == (
        "benchie|benchmark:oie2016|split:all|metric:oie2016|scorer:2019-07|gold:2.0.0@187d722cebcf|v:0.2.0"
    )
    gold = report["gold"]
    assert gold["sha256"].startswith("187d722cebcf")  # type: ignore[index]
    assert [f["path"] for f in gold["files"]] == [  # type: ignore[index]
        "oie2016/2.0.0/dev/dev.oie",
        "oie2016/2.0.0/train/train.oie",
        "oie2016/2.0.0/test/test.oie",
    ]
    verified = cli("verify", out)
    assert verified.exit_code == 0, verified.stdout + verified.stderr


def test_metric_oie2016_implies_its_benchmark_and_splits_differ(
    cli: RunCli, tmp_path: Path
) -> None:
    path = OIE2016_DATA / "openie4_output.txt.gz"
    by_metric = _json(
        cli, tmp_path / "a.json", "--metric", "oie2016", "--input-format", "openie4", path
    )
    assert by_metric["benchmark"] == "oie2016"
    test = _json(
        cli,
        tmp_path / "t.json",
        "--metric",
        "oie2016",
        "--split",
        "test",
        "--input-format",
        "openie4",
        path,
    )
    paper = _json(
        cli,
        tmp_path / "p.json",
        "--benchmark",
        "oie2016",
        "--gold-version",
        "1.0.0",
        "--input-format",
        "openie4",
        path,
    )
    f1s = {r["systems"][0]["oie2016"]["f1"] for r in (by_metric, test, paper)}  # type: ignore[index]
    assert len(f1s) == 3  # another split, another corpus: other numbers
    assert test["gold"]["files"] == [  # type: ignore[index]
        {
            "path": "oie2016/2.0.0/test/test.oie",
            "sha256": "7b2137fd993c8e241ecd1c7c724d12cb90e0e38152c40afb4b933c158ccb6aa3",
        }
    ]


@pytest.mark.parametrize(
    "args, status, message",
    [
        (("--benchmark", "oie2016", "--split", "nope"), 2, "Invalid value for '--split'"),
        (("--benchmark", "carb", "--split", "all"), 2, "carb has the splits test, dev"),
        (("--benchmark", "oie2016", "--metric", "carb"), 2, "OIE2016's metric only"),
        (("--metric", "wire57,carb"), 2, "metrics of different benchmarks"),
        (("--benchmark", "benchie", "--metric", "wire57"), 2, "own gold"),
        (("--metric", "carb,carb"), 2, "named twice"),
        (("--benchmark", "oie2016", "--lang", "de"), 2, "English only"),
        (("--benchmark", "oie2016", "--facet", "concat"), 2, "do not apply"),
        (("--benchmark", "oie2016", "--input-format", "benchie"), 2, "reads clausie, openie4"),
        (("--benchmark", "oie2016", "--expect-gold", "0" * 12), 1, "not the expected"),
    ],
)
def test_refusals(
    cli: RunCli, tmp_path: Path, args: tuple[str, ...], status: int, message: str
) -> None:
    out = tmp_path / "r.json"
    result = cli("score", *args, OIE2016_DATA / "openie4_output.txt.gz", "-o", out)
    assert result.exit_code == status and message in result.stderr, result.stderr
    assert not out.exists()


def test_a_file_of_other_sentences_or_nothing_is_refused(cli: RunCli, tmp_path: Path) -> None:
    other = tmp_path / "other.txt"
    other.write_text(
        "0.9\t\tSimpleArgument(x,List([0, 1)))\tRelation(y,List([2, 3)))\t"
        "SimpleArgument(z,List([4, 5)))\tNot a sentence of OIE2016 .\n",
        "utf-8",
    )
    empty = tmp_path / "empty.txt"
    empty.write_text("", "utf-8")
    for path, message in ((other, "is a sentence of OIE2016"), (empty, "no extraction read")):
        result = cli("score", "--benchmark", "oie2016", "--input-format", "openie4", path)
        assert result.exit_code == 2, result.stderr
        assert message in result.stderr


def test_sentences_outside_the_split_are_said_and_fail_strict(cli: RunCli, tmp_path: Path) -> None:
    path = OIE2016_DATA / "openie4_output.txt.gz"
    args = ("score", "--benchmark", "oie2016", "--split", "test", "--input-format", "openie4")
    said = cli(*args, path)
    assert said.exit_code == 0
    assert "sentences are not in oie2016's test split: the original scorer ignores them" in (
        said.stderr
    )
    strict = cli(*args, "--strict", path)
    assert strict.exit_code == ExitCode.FAILED  # its only submission failed, with exit 1
    assert "(an error under --strict)" in strict.stderr


# --------------------------------------------------------------------------- external


def _added(cli: RunCli, tmp_path: Path, make: Callable[[str], tuple[Path, bytes]]) -> Path:
    """A gold directory with both external benchmarks' stand-ins added."""
    root = tmp_path / "gold"
    root.mkdir()
    for name in NAMES:
        src, _ = make(name)
        assert cli("benchmark", "add", name, src, "--gold-dir", root).exit_code == 0
    return root


def test_external_benchmarks_score_as_their_metric_modules(
    cli: RunCli,
    tmp_path: Path,
    stand_in: Callable[[str], tuple[Path, bytes]],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # WiRe57's scorer crashes on a reference sentence without tuples: leave "A 2" out.
    wire = {doc: [s for s in sentences if s["tuples"]] for doc, sentences in WIRE.items()}
    monkeypatch.setitem(STAND_INS, "wire57", (wire, 2, 3, STAND_INS["wire57"][3]))
    root = _added(cli, tmp_path, stand_in)
    system = tmp_path / "sys.tsv"  # Re-OIE2016's own system format (CaRB's tab format)
    system.write_text(
        "Ann likes Bob , a teacher .\t0.9\tlikes\tAnn\tBob\n"
        "Ann likes Bob , a teacher .\t0.4\tis\tBob\ta teacher\n"
        "Carl sleeps .\t0.7\tsleeps\tCarl\n"
        "Somebody else .\t0.5\tis\tsomebody\n",
        "utf-8",
    )
    report = _json(cli, tmp_path / "r.json", "--benchmark", "reoie2016", "--gold-dir", root, system)
    gold_file = root / "reoie2016" / "1.0.0" / "test" / "Re-OIE2016.json"
    result = reoie2016.score(
        reoie2016.read_gold_json(str(gold_file)), reoie2016.read_system(str(system))
    )
    expected = {**reoie2016.to_json(result), "curve": reoie2016.curve_of(result).as_json()}
    assert report["systems"][0]["reoie2016"] == json.loads(json.dumps(expected))  # type: ignore[index]
    assert report["systems"][0]["extractions"] == 4  # type: ignore[index]

    export = tmp_path / "export.json"
    export.write_text(
        json.dumps(
            {
                "A 1": [
                    {
                        "arg1": "Tokyo",
                        "rel": "is the capital of",
                        "arg2": "Japan",
                        "extractor": "mine",
                    }
                ],
                "B 1": [{"arg1": "Ann", "rel": "met", "arg2": "Bob", "extractor": "other"}],
            }
        ),
        "utf-8",
    )
    report = _json(cli, tmp_path / "w.json", "--benchmark", "wire57", "--gold-dir", root, export)
    names = [s["name"] for s in report["systems"]]  # type: ignore[union-attr]
    assert names == ["export/mine", "export/other"]  # one row per extractor, by name
    reference = wire57.read_reference(
        str(root / "wire57" / "1.0.0" / "test" / "WiRe57_343-manual-oie.json")
    )
    systems = wire57.by_system(reference, wire57.read_export(str(export)))
    for row, (name, predictions) in zip(report["systems"], systems.items(), strict=True):  # type: ignore[arg-type]
        assert row["wire57"] == wire57.to_json(wire57.system_score(reference, predictions)), name
    verified = cli("verify", "--gold-dir", root, tmp_path / "w.json", export, export)
    assert verified.exit_code == 0, verified.stdout + verified.stderr


def test_a_missing_external_benchmark_names_the_command_that_adds_it(
    cli: RunCli, tmp_path: Path
) -> None:
    root = tmp_path / "gold"
    root.mkdir()
    result = cli("score", "--benchmark", "reoie2016", "--gold-dir", root, "x.tsv")
    assert result.exit_code == 2
    assert "benchie benchmark add reoie2016" in result.stderr


# --------------------------------------------------------------------------- carb-ss


def test_carb_ss_beside_carb_in_one_pass_equals_each_alone(cli: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "openie4.txt"
    path.write_bytes(gzip.decompress((CARB_DATA / "openie4_output.txt.gz").read_bytes()))
    both = _json(cli, tmp_path / "b.json", "--benchmark", "carb", "--metric", "carb,carb-ss", path)
    alone = {
        m: _json(cli, tmp_path / f"{m}.json", "--benchmark", "carb", "--metric", m, path)
        for m in ("carb", "carb-ss")
    }
    for m, report in alone.items():
        assert both["systems"][0][m] == report["systems"][0][m]  # type: ignore[index]
    assert both["carb-ss_signature"] == alone["carb-ss"]["signature"]
    # OpenIE6's --single_match on OpenIE 4's output (docs/carb.md): F1 0.4037745713496125
    assert alone["carb-ss"]["systems"][0]["carb-ss"]["f1"] == 0.4037745713496125  # type: ignore[index]
    assert cli("verify", tmp_path / "b.json").exit_code == 0


# --------------------------------------------------------------------------- the suite


@pytest.fixture(scope="module")
def suite_input(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """OpenIE 4's output on OIE2016's 3,200 sentences (which hold CaRB's and BenchIE's
    English sentences), as CaRB ships it."""
    path = tmp_path_factory.mktemp("suite") / "openie4.txt"
    path.write_bytes(gzip.decompress((CARB_DATA / "openie4_output.txt.gz").read_bytes()))
    return path


def test_the_suite_rows_equal_each_benchmark_scored_alone(
    cli: RunCli, tmp_path: Path, suite_input: Path
) -> None:
    suite = _json(cli, tmp_path / "s.json", "--suite", suite_input)
    rows = {(r["benchmark"], r["metric"], r.get("facet")): r for r in suite["rows"]}  # type: ignore[union-attr]
    for facet in ("default", "concat", "minimal"):
        alone = _json(
            cli,
            tmp_path / f"{facet}.json",
            "--facet",
            facet,
            "--input-format",
            "openie4",
            suite_input,
        )
        row = rows[("benchie", "benchie", facet)]
        for key in ("precision", "recall", "f1", "tp", "fp", "fn"):
            assert row["benchie"][key] == alone["systems"][0][key], (facet, key)  # type: ignore[index]
        assert row["signature"] == alone["signature"]
    carb = _json(
        cli, tmp_path / "c.json", "--benchmark", "carb", "--metric", "carb,carb-ss", suite_input
    )
    for m in ("carb", "carb-ss"):
        for key in ("precision", "recall", "f1", "auc"):
            assert rows[("carb", m, None)][m][key] == carb["systems"][0][m][key]  # type: ignore[index]
    oie = rows[("oie2016", "oie2016", None)]["oie2016"]
    assert oie["auc"] == OPENIE4_AUC  # CaRB ships the output oie-benchmark published
    for name in ("reoie2016", "wire57"):  # not added to the repository's store
        assert "benchie benchmark add" in rows[(name, name, None)]["skipped"]
    table = cli("score", "--suite", suite_input)
    assert table.exit_code == 0
    assert (
        "benchie|benchmark:oie2016|split:all|metric:oie2016|scorer:2019-07|gold:2.0.0@187d722cebcf"
        in table.stdout
    )


def test_the_suite_refuses_what_it_cannot_do_exactly(cli: RunCli, tmp_path: Path) -> None:
    clausie = tmp_path / "clausie.txt"
    clausie.write_bytes(gzip.decompress((CARB_DATA / "clausie_output.txt.gz").read_bytes()))
    result = cli("score", "--suite", "--input-format", "clausie", clausie)
    assert result.exit_code == 2 and "rescales confidences over the whole file" in result.stderr
    result = cli("score", "--suite", "--metric", "carb", clausie)
    assert result.exit_code == 2 and "--metric does not apply" in result.stderr
    result = cli("score", "--suite", clausie, clausie)  # a system's name keys the table
    assert result.exit_code == 2 and "two submissions are named 'clausie'" in result.stderr


def test_gold_dir_is_the_repository_store() -> None:
    assert (GOLD_DIR / "oie2016" / "2.0.0" / "manifest.json").is_file()


# --------------------------------------------------------------------------- QA findings


def test_the_suite_reads_gzip_and_stdin_as_the_file_and_verifies(
    cli: RunCli, tmp_path: Path, suite_input: Path
) -> None:
    plain = _json(cli, tmp_path / "p.json", "--suite", suite_input)
    packed = _json(
        cli,
        tmp_path / "g.json",
        "--suite",
        "--input-format",
        "openie4",
        CARB_DATA / "openie4_output.txt.gz",
    )
    piped = cli(
        "score",
        "--suite",
        "--input-format",
        "openie4",
        "--format",
        "json",
        "-",
        input=suite_input.read_bytes(),
    )
    assert piped.exit_code == 0, piped.stderr
    for other in (packed, orjson.loads(piped.stdout_bytes)):
        for a, b in zip(plain["rows"], other["rows"], strict=True):  # type: ignore[arg-type]
            if "skipped" not in a:
                assert a[a["metric"]] == b[b["metric"]]
    verified = cli("verify", tmp_path / "p.json")
    assert verified.exit_code == 0, verified.stdout + verified.stderr
    changed = tmp_path / "changed.txt"
    changed.write_bytes(suite_input.read_bytes()[:-200])
    refused = cli("verify", tmp_path / "p.json", changed)
    assert refused.exit_code == 1 and "file.sha256" in refused.stdout + refused.stderr


def test_the_suite_never_writes_into_the_store_and_fails_on_a_damaged_gold(
    cli: RunCli, tmp_path: Path, suite_input: Path
) -> None:
    import shutil

    root = tmp_path / "gold"
    shutil.copytree(GOLD_DIR, root)
    inside = root / "oie2016" / "2.0.0" / "test" / "test.oie"
    before = inside.read_bytes()
    # (--format: an extension of no suite format, .oie, is refused before the store is seen)
    result = cli(
        "score", "--suite", "--gold-dir", root, suite_input, "-o", inside, "--format", "json"
    )
    assert result.exit_code == 2 and "inside the gold store" in result.stderr
    assert inside.read_bytes() == before
    with (root / "carb" / "1.0.0" / "test" / "carb_test.tsv").open("ab") as fh:
        fh.write(b"x")
    damaged = cli("score", "--suite", "--gold-dir", root, suite_input)
    assert damaged.exit_code == 1 and "differs from its manifest" in damaged.stderr


def test_compressed_input_is_bounded_and_checked(cli: RunCli, tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(gzip.compress(b"\n" * (65 << 20), compresslevel=1))
    broken = tmp_path / "broken.gz"
    broken.write_bytes(b"\x1f\x8bnot really gzip")
    cut = tmp_path / "cut.gz"
    cut.write_bytes((OIE2016_DATA / "openie4_output.txt.gz").read_bytes()[:5000])
    for path, message in (
        (bomb, "decompresses to more than 64 MiB"),
        (broken, "not a valid gzip file"),
        (cut, "a truncated gzip file"),
    ):
        result = cli("score", "--benchmark", "oie2016", "--input-format", "openie4", path)
        assert result.exit_code == 2 and message in result.stderr, result.stderr


def test_a_gzip_file_of_several_members_is_read_whole_and_trailing_data_refused(
    cli: RunCli, tmp_path: Path
) -> None:
    """``cat a.gz b.gz`` is one valid gzip file (gzip reads both members): scored as the
    whole text, never as its first member alone; data that is not gzip after the last
    member is refused (trailing zero bytes, gzip's padding, are not)."""
    text = gzip.decompress((OIE2016_DATA / "openie4_output.txt.gz").read_bytes())
    half = text.index(b"\n", len(text) // 2) + 1
    members = gzip.compress(text[:half]) + gzip.compress(text[half:])
    (tmp_path / "whole.gz").write_bytes(gzip.compress(text))
    (tmp_path / "members.gz").write_bytes(members)
    (tmp_path / "padded.gz").write_bytes(members + b"\0" * 512)
    (tmp_path / "appended.gz").write_bytes(members + b"garbage\n")
    args = ("score", "--benchmark", "oie2016", "--input-format", "openie4", "--format", "json")
    whole = cli(*args, tmp_path / "whole.gz")
    assert whole.exit_code == 0, whole.stderr
    numbers = json.loads(whole.stdout)["systems"][0]["oie2016"]
    for name in ("members.gz", "padded.gz"):
        result = cli(*args, tmp_path / name)
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout)["systems"][0]["oie2016"] == numbers
    appended = cli(*args, tmp_path / "appended.gz")
    assert appended.exit_code == 2 and "after the end of the gzip data" in appended.stderr


def test_what_the_originals_do_silently_is_said(cli: RunCli, tmp_path: Path) -> None:
    """ReVerb's sentence numbers that name other sentences than the line's own text, and two
    texts that collide under the sentence key: scored as the original does, and said."""
    sentences = (GOLD_DIR / "oie2016" / "2.0.0" / "sentences.txt").read_text("utf-8").splitlines()
    reverb = tmp_path / "reverb.txt"
    reverb.write_text(
        "".join(f"f\t{n}\ta\tb\tc\t0\t1\t1\t2\t2\t3\t0.5\t{sentences[n % 3]}\n" for n in (1, 2, 3)),
        "utf-8",
    )  # line n names sentence n but carries the text of sentence n % 3 + 1: all 3 differ
    said = cli("score", "--benchmark", "oie2016", "--input-format", "reverb", reverb)
    assert "3 of its 3 lines name by number (column 2) a sentence" in said.stderr, said.stderr
    strict = cli("score", "--benchmark", "oie2016", "--input-format", "reverb", "--strict", reverb)
    assert strict.exit_code == ExitCode.FAILED
    first = gzip.decompress((OIE2016_DATA / "openie4_output.txt.gz").read_bytes()).decode()
    line = first.splitlines()[0]
    text = line.split("\t")[5]
    twin = line.replace(text, text.replace(" ,", ","), 1)
    collide = tmp_path / "collide.txt"
    collide.write_text(first + twin + "\n", "utf-8")
    result = cli("score", "--benchmark", "oie2016", "--input-format", "openie4", collide)
    assert "1 of its sentence texts differ from another only where" in result.stderr


def test_other_benchmarks_output_scored_against_benchie_gets_a_hint(
    cli: RunCli, suite_input: Path
) -> None:
    result = cli("score", "--input-format", "openie4", suite_input)
    assert result.exit_code == 0
    assert "hint: most of its sentences are not this gold's" in result.stderr
    assert "benchie score --suite FILE" in result.stderr


def test_the_wire57_reference_given_as_an_export_is_named(
    cli: RunCli,
    tmp_path: Path,
    stand_in: Callable[[str], tuple[Path, bytes]],  # noqa: F811
) -> None:
    root = _added(cli, tmp_path, stand_in)
    reference = root / "wire57" / "1.0.0" / "test" / "WiRe57_343-manual-oie.json"
    result = cli("score", "--benchmark", "wire57", "--gold-dir", root, reference)
    assert result.exit_code == 2
    assert "this is WiRe57's reference (the gold), not a systems' export" in result.stderr


def test_verify_of_a_suite_report_never_trusts_the_cache(
    cli: RunCli, tmp_path: Path, suite_input: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forged index entry (twice BenchIE's synsets) fools the suite, as it fools `score`
    (the cache is trusted like the code); `verify` parses the gold and names the rows."""
    import marshal

    from benchie_cli.benchmarks.benchie import index_cache
    from benchie_cli.benchmarks.benchie.matching import CompiledGold
    from benchie_cli.gold.store import GoldStore

    cache = tmp_path / "cache"
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(cache))
    honest = _json(cli, tmp_path / "h.json", "--suite", suite_input)
    resolved = GoldStore(GOLD_DIR).resolve("1.1.0", "en", "default")
    entry = index_cache.entry_path(cache, resolved)
    content = list(marshal.loads(entry.read_bytes().split(b"\n", 1)[1]))
    content[3] = [2 * n for n in content[3]]
    entry.write_bytes(index_cache.encode_entry(resolved, CompiledGold.from_data(tuple(content))))
    forged = _json(cli, tmp_path / "f.json", "--suite", suite_input)
    assert forged["rows"][0]["benchie"]["fn"] != honest["rows"][0]["benchie"]["fn"]  # type: ignore[index]
    assert cli("verify", tmp_path / "h.json").exit_code == 0
    refused = cli("verify", tmp_path / "f.json")
    assert refused.exit_code == 1
    assert "rows[0].benchie.fn" in refused.stdout + refused.stderr


def test_lines_a_reader_skips_are_said(cli: RunCli) -> None:
    """OpenIE 4's output has 489 lines with an empty slot, which oie-benchmark's and CaRB's
    readers skip (docs/oie2016.md, 'Reading'): scored as they do, and said."""
    for benchmark, path in (
        ("oie2016", OIE2016_DATA / "openie4_output.txt.gz"),
        ("carb", CARB_DATA / "openie4_output.txt.gz"),
    ):
        result = cli("score", "--benchmark", benchmark, "--input-format", "openie4", path)
        assert result.exit_code == 0, result.stderr
        assert "489 of its 9,236 lines give no extraction" in result.stderr


def test_verify_of_a_suite_report_needs_the_store_it_was_scored_with(
    cli: RunCli, tmp_path: Path, suite_input: Path, alone: None
) -> None:
    """A store without a benchmark the report scored, or with one it found absent, would
    make every row of that benchmark differ: refused (exit 2), naming the benchmark."""
    import shutil

    without = tmp_path / "without"
    shutil.copytree(GOLD_DIR, without)
    shutil.rmtree(without / "oie2016")
    full = ("--gold-dir", GOLD_DIR)
    assert cli("score", "--suite", *full, suite_input, "-o", tmp_path / "full.json").exit_code == 0
    assert (
        cli("score", "--suite", "--gold-dir", without, suite_input, "-o", tmp_path / "part.json")
    ).exit_code == 0
    lacking = cli("verify", "--gold-dir", without, tmp_path / "full.json")
    assert lacking.exit_code == 2 and "the report scored OIE2016" in lacking.stderr
    extra = cli("verify", *full, tmp_path / "part.json")
    assert extra.exit_code == 2 and "scored without OIE2016" in extra.stderr
    assert cli("verify", "--gold-dir", without, tmp_path / "part.json").exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ("--benchmark", "carb", "--split", "test", "--input-format", "openie4"),
        ("--benchmark", "oie2016", "--input-format", "openie4"),
        ("--suite", "--input-format", "openie4"),
    ],
)
def test_a_file_name_that_is_not_utf8_is_escaped_in_the_report(
    cli: RunCli, tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Such a name stopped these reports with an internal error (exit 70): it is escaped,
    as BenchIE's reports and every message escape it."""
    odd = tmp_path / os.fsdecode(b"c\xff.txt.gz")
    odd.write_bytes((CARB_DATA / "openie4_output.txt.gz").read_bytes())
    report = _json(cli, tmp_path / "r.json", *args, odd)
    named = report["file"]["path"] if "--suite" in args else report["systems"][0]["file"]
    assert named == f"{tmp_path}/c\\xff.txt.gz"
