"""Trust, second round (issue 21): each case an attacker found, at its root.

1. One BOM rule (``textio.without_bom``): a UTF-8 BOM before any file changes no number of
   any benchmark, reader or gold.
2. One output guard (``benchie_cli.outputs``): no command writes into a gold store.
3. Nothing dropped silently: the suite says the lines its readers skip, ``gold diff`` the
   gold errors that hide blocks, and the line limit holds for whole-file readers too.
4. One entry point for the unexpected: a bug is one line and exit 70, an operating-system
   failure one line and exit 2; fields read from reports and references are type-checked.
5. Messages that say what is wrong: the temporary directory, deep zips, bad tags, a
   dangling private-gold link.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchie_cli.benchmarks.reoie2016 import metric as reoie2016
from benchie_cli.cli import main
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.textio import BOM, decode_text, without_bom
from tests.benchmarks.test_benchmark_add import NAMES, STAND_INS, WIRE, pin, stand_in  # noqa: F401 (fixtures)
from tests.conftest import DATA, GOLD_DIR, RunCli, example

CARB_DATA = DATA / "carb"


def _bom(path: Path, out: Path) -> Path:
    out.write_bytes(BOM + path.read_bytes())
    return out


def _numbers(report: dict[str, object]) -> object:
    """What a report says, without what names the file (its path and sha256 differ)."""
    text = json.dumps(report, sort_keys=True)
    for key in ("file", "sha256", "name", "path"):
        text = text.replace(key, "")
    doc = json.loads(text)
    if isinstance(doc, dict):
        doc.pop("", None)
        for system in doc.get("systems", []):
            system.pop("", None)
    return doc


def _report(cli: RunCli, out: Path, *args: object) -> dict[str, object]:
    result = cli("score", *args, "-o", out)
    assert result.exit_code == 0, result.stderr
    data = json.loads(out.read_text("utf-8"))
    assert isinstance(data, dict)
    return data


# --------------------------------------------------------------------------- 1. BOM


def test_without_bom_and_decode_text() -> None:
    assert without_bom(BOM + b"a\n") == b"a\n"
    assert without_bom(b"a" + BOM) == b"a" + BOM  # only first
    assert decode_text(BOM + "é\n".encode(), "f") == "é\n"
    with pytest.raises(BenchieError) as err:
        decode_text(b"ok\nab\xffc\n", "f.txt")
    assert str(err.value) == "f.txt:2: error: not UTF-8 (byte 0xff at column 3)"


@pytest.fixture(scope="module")
def openie4(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """CaRB's OpenIE 4 output (MIT), as published and with a BOM first."""
    root = tmp_path_factory.mktemp("bom")
    plain = root / "oie4.txt"
    plain.write_bytes(gzip.decompress((CARB_DATA / "openie4_output.txt.gz").read_bytes()))
    return plain, _bom(plain, root / "oie4_bom.txt")


@pytest.mark.parametrize("benchmark", ["carb", "oie2016"])
def test_a_bom_changes_no_benchmark_number(
    cli: RunCli, tmp_path: Path, openie4: tuple[Path, Path], benchmark: str
) -> None:
    plain, bom = openie4
    args = ("--benchmark", benchmark, "--input-format", "openie4")
    a = _report(cli, tmp_path / "a.json", *args, plain)
    b = _report(cli, tmp_path / "b.json", *args, bom)
    assert _numbers(a) == _numbers(b)
    assert a["systems"][0]["extractions"] == 8747  # type: ignore[index]


def test_a_bom_changes_no_suite_row(cli: RunCli, tmp_path: Path) -> None:
    """CaRB's test gold written as a CaRB-tab system output: the BOM stuck to the first
    sentence's text moved CaRB's, CaRB (s,s)'s and OIE2016's numbers, exit 0."""
    gold = (GOLD_DIR / "carb" / "1.0.0" / "test" / "carb_test.tsv").read_text("utf-8")
    lines = []
    for line in gold.splitlines():
        sentence, relation, *args = line.split("\t")
        lines.append("\t".join([sentence, "1.0", relation, *args]))
    plain = tmp_path / "carb_sys.txt"
    plain.write_text("\n".join(lines) + "\n", "utf-8")
    bom = _bom(plain, tmp_path / "carb_sys_bom.txt")
    a = _report(cli, tmp_path / "a.json", "--suite", plain)
    b = _report(cli, tmp_path / "b.json", "--suite", bom)
    assert a["rows"] == b["rows"]
    carb = next(r for r in a["rows"] if r["metric"] == "carb")  # type: ignore[union-attr]
    assert carb["carb"]["recall"] > 0.92  # type: ignore[index]


def test_a_bom_changes_no_external_gold_nor_export(
    cli: RunCli,
    tmp_path: Path,
    stand_in: Callable[[str], tuple[Path, bytes]],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wire = {doc: [s for s in sentences if s["tuples"]] for doc, sentences in WIRE.items()}
    monkeypatch.setitem(STAND_INS, "wire57", (wire, 2, 3, STAND_INS["wire57"][3]))
    root = tmp_path / "gold"
    root.mkdir()
    for name in NAMES:
        src, _ = stand_in(name)
        assert cli("benchmark", "add", name, src, "--gold-dir", root).exit_code == 0
    export = tmp_path / "export.json"
    export.write_text(
        json.dumps(
            {
                "A 1": [{"arg1": "Tokyo", "rel": "is", "arg2": "Japan", "extractor": "mine"}],
                "B 1": [{"arg1": "Ann", "rel": "met", "arg2": "Bob", "extractor": "mine"}],
            }
        ),
        "utf-8",
    )
    bom = _bom(export, tmp_path / "export_bom.json")
    a = _report(cli, tmp_path / "a.json", "--benchmark", "wire57", "--gold-dir", root, export)
    b = _report(cli, tmp_path / "b.json", "--benchmark", "wire57", "--gold-dir", root, bom)
    assert _numbers(a) == _numbers(b)

    # Re-OIE2016's reader, given paths (`python -m benchie_cli.benchmarks.reoie2016.metric`).
    gold_file = root / "reoie2016" / "1.0.0" / "test" / "Re-OIE2016.json"
    system = tmp_path / "sys.tsv"
    system.write_text("Ann likes Bob , a teacher .\t0.9\tlikes\tAnn\tBob\n", "utf-8")
    plain = reoie2016.score(
        reoie2016.read_gold_json(str(gold_file)), reoie2016.read_system(str(system))
    )
    with_bom = reoie2016.score(
        reoie2016.read_gold_json(str(_bom(gold_file, tmp_path / "g.json"))),
        reoie2016.read_system(str(_bom(system, tmp_path / "s.tsv"))),
    )
    assert reoie2016.to_json(plain) == reoie2016.to_json(with_bom)


# --------------------------------------------------------------------------- 2. outputs


def _store_copy(tmp_path: Path) -> Path:
    """A gold store of our own (1.1.0 and CaRB), so a failed guard harms no real file."""
    root = tmp_path / "store"
    root.mkdir()
    shutil.copytree(GOLD_DIR / "1.1.0", root / "1.1.0")
    shutil.copytree(GOLD_DIR / "carb", root / "carb")
    shutil.copytree(GOLD_DIR / "oie2016", root / "oie2016")
    return root


@pytest.mark.parametrize(
    "command",
    [
        ["platform", "bundle", "-o", "{m}"],
        ["score", "--lang", "en", "{clausie}", "-o", "{m}"],
        ["score", "--suite", "{oie4}", "-o", "{m}"],
        ["score", "--benchmark", "carb", "--input-format", "openie4", "{oie4}", "-o", "{m}"],
        ["analyze", "--lang", "en", "{clausie}", "-o", "{m}"],
        ["sentences", "--lang", "en", "-o", "{m}"],
        ["strip-implicit", "--lang", "en", "{clausie}", "-o", "{m}"],
    ],
    ids=["bundle", "score", "suite", "benchmark", "analyze", "sentences", "strip-implicit"],
)
def test_no_command_writes_over_released_gold(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    openie4: tuple[Path, Path],
    command: list[str],
) -> None:
    """The store is the default one (no --gold-dir): `platform bundle -o
    gold/1.1.0/manifest.json` replaced a released manifest with a zip, exit 0."""
    root = _store_copy(tmp_path)
    monkeypatch.setenv("BENCHIE_GOLD_DIR", str(root))
    manifest = root / "1.1.0" / "manifest.json"
    before = manifest.read_bytes()
    values = {"m": str(manifest), "clausie": str(example("en", "clausie")), "oie4": str(openie4[0])}
    args = [part.format(**values) for part in command]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == ExitCode.USAGE, result.output
    # (an input of the run is said as such first: the manifest that vouched for the gold)
    assert "inside the gold store" in result.stderr or "is also an input" in result.stderr
    assert manifest.read_bytes() == before
    assert sorted(p.name for p in manifest.parent.iterdir()) == [
        "ATTRIBUTION.md",
        "de",
        "en",
        "manifest.json",
        "zh",
    ]


def test_platform_score_never_writes_into_a_gold_store(tmp_path: Path) -> None:
    from tests.platform.test_platform import _input, _spec

    input_dir = _input(tmp_path, _spec())
    shutil.copy(example("en", "clausie"), input_dir / "res" / "en.tsv")
    root = _store_copy(tmp_path)
    env = {**os.environ, "BENCHIE_GOLD_DIR": str(root)}
    output = root / "1.1.0"
    res = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "platform", "score", str(input_dir), str(output)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert res.returncode == 2 and "inside the gold store" in res.stderr, res.stderr
    assert not (output / "scores.json").exists()


# --------------------------------------------------------------------------- 3. drops


def test_the_suite_says_the_lines_its_readers_skip(
    cli: RunCli, tmp_path: Path, openie4: tuple[Path, Path]
) -> None:
    out = tmp_path / "s.json"
    result = cli("score", "--suite", openie4[0], "-o", out)
    assert result.exit_code == 0
    said = "489 of its 9,236 lines give no extraction"
    assert said in result.stderr
    report = json.loads(out.read_text("utf-8"))
    assert any(said in w for w in report["warnings"])
    assert cli("verify", out, openie4[0]).exit_code == 0


def test_gold_diff_says_a_block_its_reader_skipped(cli: RunCli, tmp_path: Path) -> None:
    root = tmp_path / "store"
    root.mkdir()
    shutil.copytree(GOLD_DIR / "1.1.0", root / "1.1.0")
    src = tmp_path / "src" / "en" / "default"
    src.mkdir(parents=True)
    name = "benchie_gold_annotations_en.txt"
    text = (GOLD_DIR / "1.1.0" / "en" / "default" / name).read_text("utf-8")
    (src / name).write_text(text, "utf-8")
    args = ("--description", "d", "--license", "l", "--draft", "--no-dvc", "--gold-dir", root)
    assert cli("gold", "new", "9.0.0", "--from", src.parent.parent, *args).exit_code == 0
    draft = root / "9.0.0" / "en" / "default" / name
    draft.chmod(0o644)
    draft.write_text(text.replace("1--> Cluster 3:\n", "1--> Cluster 3\n", 1), "utf-8")
    assert cli("gold", "manifest", root / "9.0.0").exit_code == 0
    result = cli("gold", "diff", "1.1.0", "9.0.0", "--lang", "en", "--gold-dir", root)
    assert result.exit_code == 0
    assert "has 1 error(s) its reader skipped or repaired" in result.stderr
    assert ":8: error: malformed cluster header" in result.stderr
    doc = json.loads(
        cli(
            "gold", "diff", "1.1.0", "9.0.0", "--lang", "en", "--gold-dir", root, "--format", "json"
        ).stdout
    )
    (en,) = doc["languages"]
    assert en["b"]["findings"]["errors"] == 1 and en["a"]["findings"]["errors"] == 0


@pytest.mark.parametrize(
    "args",
    [
        ["--benchmark", "carb", "--input-format", "openie4"],
        ["--benchmark", "oie2016", "--input-format", "openie4"],
        ["--suite"],
    ],
    ids=["carb", "oie2016", "suite"],
)
def test_the_line_limit_holds_for_whole_file_readers(
    cli: RunCli, tmp_path: Path, openie4: tuple[Path, Path], args: list[str]
) -> None:
    long = tmp_path / "long.txt"
    long.write_bytes(openie4[0].read_bytes() + b"x" * (2 << 20))
    result = cli("score", *args, long)
    assert result.exit_code == ExitCode.USAGE
    assert result.stderr.strip().endswith(
        "long.txt:9237: error: line longer than 1,048,576 bytes, the limit for one line "
        "(a binary file, or a file without line breaks?)"
    )
    one = tmp_path / "one.txt"
    one.write_bytes(b"y" * (2 << 20))
    result = cli("score", *args, one)
    assert result.exit_code == ExitCode.USAGE
    assert "one.txt:1: error: line longer than 1,048,576 bytes" in result.stderr


# --------------------------------------------------------------------------- 4. the unexpected


def test_a_bug_is_one_line_and_exit_70(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchie_cli.cli import score as score_cli

    def broken(*_: object, **__: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(score_cli, "_score_suite", broken, raising=False)
    monkeypatch.setattr("benchie_cli.suite.run", broken)
    result = CliRunner().invoke(main, ["score", "--suite", str(example("en", "clausie"))])
    assert result.exit_code == ExitCode.INTERNAL == 70
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("benchie: internal error in `benchie score --suite ")
    assert "KeyError: 'boom'" in line and "please report it" in line
    monkeypatch.setenv("BENCHIE_TRACEBACK", "1")
    result = CliRunner().invoke(main, ["score", "--suite", str(example("en", "clausie"))])
    assert isinstance(result.exception, KeyError)


def test_no_usable_temporary_directory_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "nowhere"))
    result = CliRunner().invoke(main, ["score", "--suite", "-"], input=b"x\t0.5\tis\ta\tb\n")
    assert result.exit_code == ExitCode.USAGE
    assert "no usable temporary directory" in result.stderr and "TMPDIR" in result.stderr
    assert "standard output" not in result.stderr


def _verify(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    root = tmp_path_factory.mktemp("reports")
    runner = CliRunner()
    env = {"BENCHIE_GOLD_DIR": str(GOLD_DIR)}
    clausie = str(example("en", "clausie"))
    oie4 = root / "oie4.txt"
    oie4.write_bytes(gzip.decompress((CARB_DATA / "openie4_output.txt.gz").read_bytes()))
    made = {
        "score": ["score", "--lang", "en", clausie],
        "carb": ["score", "--benchmark", "carb", "--input-format", "openie4", str(oie4)],
        "suite": ["score", "--suite", str(oie4)],
    }
    out = {}
    for kind, args in made.items():
        path = root / f"{kind}.json"
        result = runner.invoke(main, [*args, "-o", str(path)], env=env)
        assert result.exit_code == 0, result.stderr
        out[kind] = json.loads(path.read_text("utf-8"))
    return out


@pytest.mark.parametrize("value", [[], {}, ["carb"], {"a": 1}, 3, None])
def test_a_report_naming_no_benchmark_by_a_string_is_refused(
    reports: dict[str, dict[str, object]], tmp_path: Path, value: object
) -> None:
    doc = dict(reports["carb"], benchmark=value)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc), "utf-8")
    status, stderr = _verify(path)
    assert (
        status == ExitCode.USAGE
        and stderr.startswith("benchie: ")
        and len(stderr.splitlines()) == 1
    )


@pytest.mark.parametrize(
    "row", [3, None, "row", [1, 2], {"benchmark": []}, {"benchmark": "carb", "gold": []}]
)
def test_a_suite_report_with_a_malformed_row_is_refused(
    reports: dict[str, dict[str, object]], tmp_path: Path, row: object
) -> None:
    rows = list(reports["suite"]["rows"])  # type: ignore[call-overload]
    rows[0] = row
    path = tmp_path / "s.json"
    path.write_text(json.dumps(dict(reports["suite"], rows=rows)), "utf-8")
    status, stderr = _verify(path)
    assert status == ExitCode.USAGE and "suite" in stderr, stderr


def _platform(
    tmp_path: Path, *, res: Callable[[Path], None], spec: bytes | None = None
) -> tuple[int, str, Path]:
    from tests.platform.test_platform import _input, _spec

    input_dir = _input(tmp_path, spec if spec is not None else _spec())
    res(input_dir / "res")
    output = tmp_path / "out"
    output.mkdir()
    result = CliRunner().invoke(main, ["platform", "score", str(input_dir), str(output)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr, output


def _zip_with_raw_name(path: Path, raw: bytes, data: bytes) -> None:
    """A zip whose one member's name is ``raw`` with the UTF-8 flag set."""
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("en.tsv", data)
    blob = path.read_bytes().replace(b"en.tsv", raw[:6].ljust(6, b"_"))
    path.write_bytes(blob.replace(b"\x00\x00\x08\x00", b"\x00\x08\x08\x00"))


def test_a_zip_member_name_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    def res(d: Path) -> None:
        archive = d / "sub.zip"
        with zipfile.ZipFile(archive, "w") as zf:
            zf.writestr("en\xe9.tsv", b"x")  # not ASCII: written with the UTF-8 flag
        utf8 = "en\xe9.tsv".encode()
        archive.write_bytes(archive.read_bytes().replace(utf8, b"en\xff\xfe.tsv"))

    status, stderr, output = _platform(tmp_path, res=res)
    assert status == ExitCode.USAGE and "marked UTF-8 but is not" in stderr, stderr
    assert not (output / "scores.json").exists()


def test_a_deep_zip_member_is_refused_by_depth(tmp_path: Path) -> None:
    def res(d: Path) -> None:
        with zipfile.ZipFile(d / "sub.zip", "w") as zf:
            zf.writestr("a/" * 2000 + "en.tsv", b"x")

    status, stderr, _ = _platform(tmp_path, res=res)
    assert status == ExitCode.USAGE and "directories deep" in stderr, stderr
    assert "recursion" not in stderr


def test_a_deeply_nested_reference_is_refused(tmp_path: Path) -> None:
    spec = b"[" * 30_000 + b"]" * 30_000
    status, stderr, _ = _platform(tmp_path, res=lambda d: None, spec=spec)
    assert status == ExitCode.USAGE and "nest" in stderr, stderr


def test_a_dangling_private_gold_link_is_refused(tmp_path: Path) -> None:
    from tests.platform.test_platform import _input, _spec

    def res(d: Path) -> None:
        shutil.copy(example("en", "clausie"), d / "en.tsv")
        (d.parent / "ref" / "gold").symlink_to(tmp_path / "gone")

    status, stderr, output = _platform(tmp_path, res=res)
    assert status == ExitCode.USAGE and "symbolic link to nothing" in stderr, stderr
    assert not (output / "scores.json").exists()
    del _input, _spec


@pytest.mark.parametrize(
    "args",
    [
        ["--title", "\udcff"],
        ["--phase", "\udcff:2026-01-01"],
        ["--image", "benchie:1\nFROM evil"],
        ["--image", "Bad Tag"],
    ],
    ids=["title", "phase", "image-newline", "image-space"],
)
def test_bundle_options_that_no_yaml_or_docker_reads_are_refused(
    tmp_path: Path, args: list[str]
) -> None:
    out = tmp_path / "b.zip"
    result = CliRunner().invoke(main, ["platform", "bundle", "-o", str(out), *args])
    assert result.exit_code == ExitCode.USAGE, (result.stderr, result.exception)
    assert result.stderr.startswith("benchie: ") and len(result.stderr.splitlines()) == 1
    assert not out.exists()


# --------------------------------------------------------------------------- 5. messages


@pytest.mark.parametrize("fmt", ["carb", "openie4"])
def test_a_typo_in_a_confidence_names_its_line(
    cli: RunCli, tmp_path: Path, openie4: tuple[Path, Path], fmt: str
) -> None:
    """Auto-detection read the file as BenchIE TSV, whose reader blamed sentence ids."""
    if fmt == "carb":
        gold = (GOLD_DIR / "carb" / "1.0.0" / "test" / "carb_test.tsv").read_text("utf-8")
        lines = []
        for line in gold.splitlines()[:5]:
            sentence, relation, *args = line.split("\t")
            lines.append("\t".join([sentence, "0.9", relation, *args]))
        lines[1] = lines[1].replace("\t0.9\t", "\t0,9\t", 1)
    else:
        lines = openie4[0].read_text("utf-8").splitlines()[:5]
        lines[1] = lines[1].replace("0.", "0,", 1)
    sys_file = tmp_path / "sys.txt"
    sys_file.write_text("\n".join(lines) + "\n", "utf-8")
    result = cli("score", "--benchmark", "carb", sys_file)
    assert result.exit_code == ExitCode.USAGE
    assert "sys.txt:2:" in result.stderr and "0," in result.stderr, result.stderr


# --------------------------------------------------------------------------- the second pass


def test_the_index_cache_never_writes_into_a_gold_store(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``BENCHIE_CACHE_DIR=gold/1.1.0/en/cache`` put an index inside a released version
    (exit 0; ``gold verify`` then failed)."""
    root = _store_copy(tmp_path)
    for cache in (root / "1.1.0" / "en" / "cache", root / "cache"):
        monkeypatch.setenv("BENCHIE_CACHE_DIR", str(cache))
        result = cli("score", "--gold-dir", root, "--lang", "en", example("en", "clausie"))
        assert result.exit_code == 0
        assert not cache.exists()
        refused = cli("gold", "compile", "--gold-dir", root)
        assert refused.exit_code == ExitCode.USAGE and "inside the gold store" in refused.stderr
    assert cli("gold", "verify", "--gold-dir", root, "--gold-version", "1.1.0").exit_code == 0


def test_benchmark_add_never_writes_into_a_gold_version(
    cli: RunCli,
    tmp_path: Path,
    stand_in: Callable[[str], tuple[Path, bytes]],  # noqa: F811
) -> None:
    root = _store_copy(tmp_path)
    src, _ = stand_in("reoie2016")
    for inside in (root / "oie2016" / "2.0.0", root / "1.1.0" / "en"):
        result = cli("benchmark", "add", "reoie2016", src, "--gold-dir", inside)
        assert result.exit_code == ExitCode.USAGE and "is a gold version" in result.stderr
        assert not (inside / "reoie2016").exists()


def test_an_output_through_a_bind_mount_of_the_store_is_refused(tmp_path: Path) -> None:
    """The guard compared paths: a bind mount of the store is another path to it."""
    root = _store_copy(tmp_path)
    mount = tmp_path / "mounted"
    mount.mkdir()
    code = (
        f"mount --bind {root} {mount} && "
        f"{sys.executable} -m benchie_cli score --gold-dir {root} --lang en "
        f"{example('en', 'clausie')} -o {mount}/x.json"
    )
    res = subprocess.run(
        ["unshare", "-m", "sh", "-c", code], capture_output=True, text=True, timeout=120
    )
    if "mount" in res.stderr and "inside the gold store" not in res.stderr:
        pytest.skip(f"no bind mount here ({res.stderr.strip()[:80]})")
    assert res.returncode == 2 and "inside the gold store" in res.stderr, res.stderr
    assert not (root / "x.json").exists()


def test_verify_refuses_a_report_naming_an_unknown_facet(cli: RunCli, tmp_path: Path) -> None:
    gold = GOLD_DIR / "1.1.0" / "en" / "default" / "benchie_gold_annotations_en.txt"
    report = tmp_path / "r.json"
    args = ("--gold-file", gold, "--lang", "en", example("en", "clausie"), "-o", report)
    assert cli("score", *args).exit_code == 0
    doc = json.loads(report.read_text("utf-8"))
    doc["options"]["facet"] = "x"
    report.write_text(json.dumps(doc), "utf-8")
    result = CliRunner().invoke(main, ["verify", "--gold-file", str(gold), str(report)])
    assert result.exit_code == ExitCode.USAGE, result.stderr


def test_gold_texts_and_cache_names_that_are_not_utf8(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "src" / "en" / "default"
    src.mkdir(parents=True)
    shutil.copy(GOLD_DIR / "1.1.0" / "en" / "default" / "benchie_gold_annotations_en.txt", src)
    root = tmp_path / "store"
    root.mkdir()
    for option in ("--description", "--license"):
        args = ["gold", "new", "9.9.9", "--from", str(src.parent.parent), "--no-dvc"]
        args += ["--gold-dir", str(root), "--description", "d", "--license", "l", option, "\udcff"]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == ExitCode.USAGE and "not UTF-8" in result.stderr
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(tmp_path / "c\udcffache"))
    result = CliRunner().invoke(main, ["cache", "info", "--format", "json"])
    assert result.exit_code == 0 and "\\\\xff" in result.stdout


def test_a_full_standard_error_loses_messages_not_the_report(
    tmp_path: Path, openie4: tuple[Path, Path]
) -> None:
    out = tmp_path / "r.json"
    with open("/dev/full", "w") as full:
        res = subprocess.run(
            [sys.executable, "-m", "benchie_cli", "score", str(openie4[0]), "-o", str(out)],
            stderr=full,
            stdout=subprocess.DEVNULL,
            timeout=120,
        )
    assert res.returncode == 0 and out.is_file()


def test_clausie_lines_its_reader_ignores_are_said(cli: RunCli, tmp_path: Path) -> None:
    """391 four-column lines of CaRB's ClausIE output were ignored without a word."""
    path = tmp_path / "clausie.txt"
    path.write_bytes(gzip.decompress((CARB_DATA / "clausie_output.txt.gz").read_bytes()))
    for benchmark in ("carb", "oie2016"):
        result = cli("score", "--benchmark", benchmark, "--input-format", "clausie", path)
        assert result.exit_code == 0
        assert "391 of its 17,146 lines are neither a sentence" in result.stderr


def test_an_ollie_file_without_its_header_is_said(cli: RunCli, tmp_path: Path) -> None:
    """OLLIE's reader skips line 1 as the header: a file without one lost its first
    extraction silently."""
    sentence = (GOLD_DIR / "oie2016" / "2.0.0" / "test" / "test.oie").read_text("utf-8")
    sentence = sentence.split("\t", 1)[0]
    line = f"0.9\tlawsuits\tmight have been barred\tlate\t\t\t{sentence}\n"
    path = tmp_path / "ollie.txt"
    path.write_text(line * 2, "utf-8")
    args = ("--benchmark", "oie2016", "--split", "test", "--input-format", "ollie")
    result = cli("score", *args, path)
    assert result.exit_code == 0, result.stderr
    assert "its first line is an extraction" in result.stderr
    path.write_text("confidence; arguments; relation\n" + line, "utf-8")
    assert "its first line is an extraction" not in cli("score", *args, path).stderr


def test_the_suite_says_the_sentences_of_no_benchmark(cli: RunCli, tmp_path: Path) -> None:
    """Lines of sentences no benchmark has were ignored without a word (each benchmark's
    own command says those outside its split)."""
    gold = (GOLD_DIR / "carb" / "1.0.0" / "test" / "carb_test.tsv").read_text("utf-8")
    lines = []
    for line in gold.splitlines():
        sentence, relation, *args = line.split("\t")
        lines.append("\t".join([sentence, "1.0", relation, *args]) + "\n")
    plain = tmp_path / "carb_sys.txt"
    plain.write_text("".join(lines), "utf-8")
    extra = tmp_path / "more.txt"
    unknown = "".join(f"Unknown sentence {n} .\t0.9\tis\tx\ty\n" for n in range(50))
    extra.write_text("".join(lines) + unknown, "utf-8")
    assert "in no benchmark's gold" not in cli("score", "--suite", plain).stderr
    said = cli("score", "--suite", extra).stderr
    assert "50 of its 684 sentences are in no benchmark's gold" in said


def test_the_suite_says_a_benchie_gold_with_errors(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _store_copy(tmp_path)
    shutil.copytree(root / "1.1.0", root / "9.0.0")
    for path in (root / "9.0.0").rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    draft = root / "9.0.0" / "en" / "default" / "benchie_gold_annotations_en.txt"
    text = draft.read_text("utf-8").replace("1--> Cluster 3:\n", "1--> Cluster 3\n", 1)
    draft.write_text(text, "utf-8")
    manifest = cli("gold", "manifest", "--force", root / "9.0.0")
    assert manifest.exit_code == 0, manifest.stderr
    monkeypatch.setenv("BENCHIE_GOLD_VERSION", "9.0.0")
    out = tmp_path / "s.json"
    gzipped = gzip.decompress((CARB_DATA / "openie4_output.txt.gz").read_bytes())
    system = tmp_path / "o4.txt"
    system.write_bytes(gzipped)
    result = cli("score", "--gold-dir", root, "--suite", system, "-o", out)
    assert "error(s) its reader skipped or repaired" in result.stderr
    rows = json.loads(out.read_text("utf-8"))["rows"]
    assert rows[0]["findings"]["errors"] == 1


def test_a_gold_dir_that_is_a_file_is_named_so(cli: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("x")
    result = cli("gold", "list", "--gold-dir", path)
    assert result.exit_code == ExitCode.USAGE and "is not a directory" in result.stderr


def test_an_image_name_over_255_characters_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "b.zip"
    result = CliRunner().invoke(main, ["platform", "bundle", "-o", str(out), "--image", "a" * 300])
    assert result.exit_code == ExitCode.USAGE and not out.exists()


@pytest.mark.parametrize("command", ["score", "analyze"])
def test_a_tsv_line_one_byte_over_the_limit_is_refused(
    cli: RunCli, tmp_path: Path, command: str
) -> None:
    """1,048,577 bytes passed ``score`` and ``analyze`` (their block reader allowed one
    byte for a CR that was not there); ``validate`` and the others refused it."""
    path = tmp_path / "long.tsv"
    head = "1\tHe\tserved as\t"
    path.write_text(head + "x" * ((1 << 20) + 1 - len(head)) + "\n", "utf-8")
    result = cli(command, "--lang", "en", path)
    assert result.exit_code == ExitCode.USAGE
    assert "long.tsv:1: error: line longer than 1,048,576 bytes" in result.stderr


# --------------------------------------------------------------------------- the third pass


def _dvc_repo(tmp_path: Path) -> tuple[Path, Path]:
    """A DVC repository of a store and an embedded remote, as the checkout has them."""
    repo = tmp_path / "repo"
    (repo / ".dvc").mkdir(parents=True)
    (repo / ".dvc" / "config").write_text(
        "[core]\n    remote = embedded\n['remote \"embedded\"']\n    url = ../dvc-store\n"
    )
    (repo / "dvc-store" / "files").mkdir(parents=True)
    (repo / ".dvc" / "cache").mkdir()
    store = repo / "gold"
    store.mkdir()
    shutil.copytree(GOLD_DIR / "1.1.0", store / "1.1.0")
    return repo, store


def test_no_output_into_dvc_s_copy_of_the_gold(cli: RunCli, tmp_path: Path) -> None:
    """``-o dvc-store/files/md5/...`` replaced gold bytes that the next ``dvc pull`` puts
    in a version."""
    repo, store = _dvc_repo(tmp_path)
    for target in (repo / "dvc-store" / "files" / "x", repo / ".dvc" / "cache" / "x"):
        args = ("--gold-dir", store, "--lang", "en", example("en", "clausie"), "-o", target)
        result = cli("score", *args)
        assert result.exit_code == ExitCode.USAGE and "DVC's copy" in result.stderr
        assert not target.exists()


def test_gold_new_only_into_a_store_of_benchie_s_gold(cli: RunCli, tmp_path: Path) -> None:
    repo, store = _dvc_repo(tmp_path)
    shutil.copytree(GOLD_DIR / "carb", store / "carb")
    src = tmp_path / "src" / "en" / "default"
    src.mkdir(parents=True)
    shutil.copy(GOLD_DIR / "1.1.0" / "en" / "default" / "benchie_gold_annotations_en.txt", src)
    common = ("--from", src.parent.parent, "--description", "d", "--license", "l", "--no-dvc")
    for where, said in ((store / "carb", "CaRB's part"), (repo / "dvc-store", "DVC's copy")):
        result = cli("gold", "new", "9.0.0", *common, "--gold-dir", where)
        assert result.exit_code == ExitCode.USAGE and said in result.stderr, result.stderr
        assert not (where / "9.0.0").exists()


def test_gold_dvc_is_changed_by_one_run_at_a_time(tmp_path: Path) -> None:
    """Two ``gold new`` at once each read gold.dvc, and the later write dropped the
    earlier's output: its read-change-write holds a lock."""
    import fcntl
    import threading

    from benchie_cli.gold import lifecycle

    repo, _ = _dvc_repo(tmp_path)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with lifecycle._locked(repo):
            held.set()
            release.wait(30)

    thread = threading.Thread(target=hold)
    thread.start()
    assert held.wait(30)
    with open(repo / ".dvc" / "tmp" / "benchie-gold-dvc.lock", "a") as fh:
        with pytest.raises(BlockingIOError):
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        release.set()
        thread.join(30)
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free once the run is done


def test_the_metric_module_command_line_never_writes_over_its_inputs(tmp_path: Path) -> None:
    """``python -m benchie_cli.benchmarks.carb.metric GOLD SYSTEM FORMAT GOLD`` replaced the
    gold with the curve (exit 0); a CURVE in no directory was a traceback; an empty SYSTEM
    or a GOLD of another format printed 0.0 (exit 0)."""
    gold = tmp_path / "gold.tsv"
    gold.write_bytes((GOLD_DIR / "carb" / "1.0.0" / "test" / "carb_test.tsv").read_bytes())
    before = gold.read_bytes()
    system = str(CARB_DATA / "openie4_output.txt.gz")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    module = [sys.executable, "-m", "benchie_cli.benchmarks.carb.metric"]
    for args, said in (
        ([gold, system, "openie4", gold], "is also an input"),
        ([gold, system, "openie4", tmp_path / "no" / "c.dat"], "cannot write"),
        ([gold, empty, "openie4"], "none of its sentences"),
        ([example("en", "clausie"), system, "openie4"], "none of its sentences"),
    ):
        res = subprocess.run([*module, *map(str, args)], capture_output=True, text=True)
        assert res.returncode == 2 and said in res.stderr and "Traceback" not in res.stderr
        assert res.stdout == ""
    assert gold.read_bytes() == before
