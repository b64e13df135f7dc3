"""``benchie platform bundle``: the Codabench competition bundle, checked rule by rule
against Codabench's bundle contract (docs/platform.md, "The competition bundle"), with a
minimal reader of the YAML the bundle's own emitter writes (no YAML library needed)."""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from benchie_cli import __version__
from benchie_cli.platform.bundle import to_yaml
from benchie_cli.platform.score import SCORING_COMMAND, parse_spec, score_keys
from tests.conftest import EXAMPLES, GOLD_DIR, RunCli

PHASES = ["--phase", "Dev:2026-01-01:2026-02-01", "--phase", "Test:2026-02-01"]
REQUIRED = ("version", "title", "image", "terms", "pages", "tasks", "phases", "leaderboards")


# --- a minimal reader of the emitter's YAML ----------------------------------------------


def _scalar(text: str) -> Any:
    if text.startswith('"') or text.startswith("["):
        return json.loads(text)
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        return dt.date.fromisoformat(text)
    raise AssertionError(f"unexpected YAML scalar {text!r}")


def _block(lines: list[tuple[int, str]], i: int, indent: int) -> tuple[Any, int]:
    assert lines[i][0] == indent, lines[i]
    if lines[i][1].startswith("- "):
        items = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            lines[i] = (indent + 2, lines[i][1][2:])
            item, i = _block(lines, i, indent + 2)
            items.append(item)
        return items, i
    mapping: dict[str, Any] = {}
    while i < len(lines) and lines[i][0] == indent and not lines[i][1].startswith("- "):
        key, sep, rest = lines[i][1].partition(":")
        assert sep and re.fullmatch(r"[a-z_]+", key) and key not in mapping, lines[i]
        rest = rest.strip()
        i += 1
        if rest:
            mapping[key] = _scalar(rest)
        else:
            assert i < len(lines) and lines[i][0] > indent, key
            mapping[key], i = _block(lines, i, lines[i][0])
    return mapping, i


def read_yaml(text: str) -> Any:
    lines = [
        (len(line) - len(line.lstrip(" ")), line.strip())
        for line in text.splitlines()
        if line.strip()
    ]
    assert not any("\t" in line for _, line in lines)
    value, end = _block(lines, 0, 0)
    assert end == len(lines), lines[end]
    return value


def test_the_reader_reads_the_emitter() -> None:
    doc = {
        "a": 1,
        "b": 'x: "y" é',
        "c": [{"d": dt.date(2026, 1, 2), "e": [0, 1]}, {"f": True}],
        "g": {"h": "i"},
    }
    assert read_yaml(to_yaml(doc)) == doc


# --- building ----------------------------------------------------------------------------


def run(*args: str, cwd: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, BENCHIE_GOLD_DIR=str(GOLD_DIR), BENCHIE_CACHE_DIR=str(cache))
    return subprocess.run(
        [sys.executable, "-m", "benchie_cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        check=False,
    )


class Bundle:
    def __init__(self, path: Path) -> None:
        self.path = path
        with zipfile.ZipFile(path) as zf:
            self.names = zf.namelist()
            self.files = {n: zf.read(n) for n in self.names}
        self.root = path.with_suffix("")
        with zipfile.ZipFile(path) as zf:
            zf.extractall(self.root)
        self.yaml = read_yaml(self.files["competition.yaml"].decode("utf-8"))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, index_cache_dir: Path) -> Bundle:
    where = tmp_path_factory.mktemp("bundle")
    result = run("platform", "bundle", "-o", "b.zip", *PHASES, cwd=where, cache=index_cache_dir)
    assert result.returncode == 0, result.stderr
    return Bundle(where / "b.zip")


def _manifest_sha256(version: str = "1.1.0") -> dict[str, str]:
    manifest = json.loads((GOLD_DIR / version / "manifest.json").read_text())
    return {
        f["language"]: f["sha256"]
        for f in manifest["files"]
        if f["kind"] == "gold" and f["facet"] == "default"
    }


def _all_gold_sha256() -> set[str]:
    out = set()
    for manifest in GOLD_DIR.glob("*/manifest.json"):
        out |= {f["sha256"] for f in json.loads(manifest.read_text())["files"]}
    return out


# --- the contract ------------------------------------------------------------------------


def test_competition_yaml_is_at_the_root_with_the_required_keys(built: Bundle) -> None:
    assert built.names[0] == "competition.yaml"
    doc = built.yaml
    for key in REQUIRED:
        assert key in doc, key
    assert doc["version"] == 2
    assert doc["title"] == "BenchIE"
    assert doc["docker_image"] == f"benchie:{__version__}-codabench"
    assert doc["enable_detailed_results"] is True


def test_logo_terms_and_pages(built: Bundle) -> None:
    doc = built.yaml
    logo = built.files[doc["image"]]
    assert logo.startswith(b"\x89PNG\r\n\x1a\n") and logo[12:16] == b"IHDR"
    assert doc["image"].endswith(".png")
    terms = built.files[doc["terms"]].decode()
    assert terms.strip() and "CC BY 4.0" in terms and "Gashteovski" in terms
    assert isinstance(doc["pages"], list) and doc["pages"]
    for page in doc["pages"]:
        assert set(page) == {"title", "file"}
        assert built.files[page["file"]].decode().strip(), page


def test_the_task_and_its_scoring_program(built: Bundle) -> None:
    tasks = built.yaml["tasks"]
    indexes = [t["index"] for t in tasks]
    assert all(isinstance(i, int) for i in indexes) and len(set(indexes)) == len(indexes)
    task = tasks[0]
    assert task["name"]
    program = built.root / task["scoring_program"]
    assert program.is_dir()
    metadata = (program / "metadata.yaml").read_text()
    command = dict(line.split(": ", 1) for line in metadata.splitlines())["command"]
    assert command == SCORING_COMMAND
    reference = built.root / task["reference_data"]
    assert reference.is_dir()
    spec = parse_spec((reference / "benchie.json").read_bytes())
    assert spec.gold_version == "1.1.0"
    assert spec.languages == ("en",)
    assert spec.gold_sha256 == {"en": _manifest_sha256()["en"]}


def test_phases_are_ordered_and_do_not_overlap(built: Bundle) -> None:
    phases = built.yaml["phases"]
    task_indexes = {t["index"] for t in built.yaml["tasks"]}
    assert [p["name"] for p in phases] == ["Dev", "Test"]
    assert phases[0]["start"] == dt.date(2026, 1, 1) and phases[0]["end"] == dt.date(2026, 2, 1)
    assert phases[1]["start"] == dt.date(2026, 2, 1) and "end" not in phases[1]
    for before, after in itertools.pairwise(phases):
        assert "end" in before and before["start"] < before["end"] <= after["start"]
    for phase in phases:
        assert phase["name"] and set(phase["tasks"]) <= task_indexes
        kit = built.root / phase["starting_kit"]
        assert (kit / "README.md").read_text().count("benchie validate --lang en en.tsv") == 1


def test_the_leaderboard_columns_are_the_scores_keys(
    built: Bundle, tmp_path: Path, index_cache_dir: Path
) -> None:
    boards = built.yaml["leaderboards"]
    assert len(boards) == 1
    board = boards[0]
    assert 0 < len(board["title"]) <= 64 and 0 < len(board["key"]) <= 36
    columns = board["columns"]
    keys = [c["key"] for c in columns]
    indexes = [c["index"] for c in columns]
    assert len(set(keys)) == len(keys) and len(set(indexes)) == len(indexes)
    for column in columns:
        assert 0 < len(column["title"]) <= 36 and 0 < len(column["key"]) <= 36
        assert isinstance(column["index"], int) and column["index"] >= 0
        assert column.get("sorting", "desc") in ("desc", "asc")
    assert board["primary_index"] in indexes
    primary = next(c for c in columns if c["index"] == board["primary_index"])
    assert primary["key"] == "mean_f1"
    # The keys `platform score` writes with this very reference data.
    (tmp_path / "in" / "res").mkdir(parents=True)
    shutil.copytree(built.root / "reference_data", tmp_path / "in" / "ref")
    shutil.copy(EXAMPLES / "en" / "clausie.tsv", tmp_path / "in" / "res" / "en.tsv")
    (tmp_path / "out").mkdir()
    result = run("platform", "score", "in", "out", cwd=tmp_path, cache=index_cache_dir)
    assert result.returncode == 0, result.stderr
    scores = json.loads((tmp_path / "out" / "scores.json").read_text())
    assert list(scores) == keys
    assert scores["mean_f1"] > 0


def test_the_starting_kit(built: Bundle, cli: RunCli) -> None:
    kit = built.root / "starting_kit"
    result = cli("sentences", "--lang", "en")
    assert (kit / "sentences" / "en.txt").read_text() == result.stdout
    result = cli("sentences", "--lang", "en", "--format", "tsv")
    assert (kit / "sentences" / "en.tsv").read_text() == result.stdout
    example = kit / "example" / "en.tsv"
    assert example.read_text().strip()
    assert cli("validate", "--lang", "en", str(example)).exit_code == 0


def test_no_gold_file_is_in_the_bundle(built: Bundle) -> None:
    assert not any(n.startswith("reference_data/gold") for n in built.names)
    gold = _all_gold_sha256()
    for name, data in built.files.items():
        assert hashlib.sha256(data).hexdigest() not in gold, name


def test_the_bundle_is_deterministic(built: Bundle, tmp_path: Path, index_cache_dir: Path) -> None:
    result = run(
        "platform", "bundle", "-o", "again.zip", *PHASES, cwd=tmp_path, cache=index_cache_dir
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "again.zip").read_bytes() == built.path.read_bytes()
    with zipfile.ZipFile(built.path) as zf:
        assert {i.date_time for i in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_private_gold_goes_into_the_reference_data(tmp_path: Path, index_cache_dir: Path) -> None:
    result = run(
        "platform", "bundle", "-o", "p.zip", "--private-gold", str(GOLD_DIR),
        cwd=tmp_path, cache=index_cache_dir,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    bundle = Bundle(tmp_path / "p.zip")
    store = bundle.root / "reference_data" / "gold"
    manifest = json.loads((store / "1.1.0" / "manifest.json").read_text())
    for entry in manifest["files"]:
        data = (store / "1.1.0" / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
    assert not (store / "1.0.0").exists()  # only the version pinned
    # The scoring program reads the private store (the public one is out of reach).
    (tmp_path / "in" / "res").mkdir(parents=True)
    shutil.copytree(bundle.root / "reference_data", tmp_path / "in" / "ref")
    shutil.copy(EXAMPLES / "en" / "clausie.tsv", tmp_path / "in" / "res" / "en.tsv")
    (tmp_path / "out").mkdir()
    env_gold = tmp_path / "nowhere"
    env_gold.mkdir()
    env = dict(os.environ, BENCHIE_GOLD_DIR=str(env_gold), BENCHIE_CACHE_DIR=str(index_cache_dir))
    done = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "platform", "score", "in", "out"],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "private gold store" in (tmp_path / "out" / "detailed_results.html").read_text()


def test_languages_facets_and_carb_give_matching_columns(cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "m.zip"
    args = ["--lang", "en", "--lang", "de", "--facet", "default", "--facet", "minimal"]
    result = cli("platform", "bundle", "-o", str(out), *args, "--metric", "carb", "--title", "X")
    assert result.exit_code == 0, result.stderr
    with zipfile.ZipFile(out) as zf:
        doc = read_yaml(zf.read("competition.yaml").decode())
        spec = parse_spec(zf.read("reference_data/benchie.json"))
        names = zf.namelist()
    assert spec.languages == ("en", "de") and spec.carb
    assert spec.gold_sha256 == {k: v for k, v in _manifest_sha256().items() if k in ("en", "de")}
    columns = doc["leaderboards"][0]["columns"]
    assert [c["key"] for c in columns] == score_keys(spec)
    assert "en_carb_f1" in score_keys(spec)
    assert columns[doc["leaderboards"][0]["primary_index"]]["key"] == "mean_f1"
    assert doc["title"] == "X"
    assert [p["name"] for p in doc["phases"]] == ["Test"]  # the default phase
    assert doc["phases"][0]["start"] == dt.date(2000, 1, 1)
    assert "starting_kit/sentences/de.txt" in names


@pytest.mark.parametrize(
    ("phases", "message"),
    [
        (["Dev:2026-01-01:2026-03-01", "Test:2026-02-01"], "must not overlap"),
        (["Dev:2026-02-01:2026-01-01"], "is not after start"),
        (["Dev:2026-13-01"], "not a valid date"),
        (["Dev:1.1.2026"], "not a date YYYY-MM-DD"),
        (["Dev"], "NAME:START[:END]"),
        (["Dev:2026-01-01", "Test:2026-02-01"], "needs an end"),
        (["A:2026-01-01:2026-02-01", "A:2026-02-01"], "given twice"),
    ],
)
def test_bad_phases_exit_2(cli: RunCli, tmp_path: Path, phases: list[str], message: str) -> None:
    args = [a for p in phases for a in ("--phase", p)]
    result = cli("platform", "bundle", "-o", str(tmp_path / "b.zip"), *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert not (tmp_path / "b.zip").exists()


def test_pyyaml_reads_the_same_document(built: Bundle) -> None:
    """Codabench reads competition.yaml with PyYAML: it must see what the reader sees."""
    yaml = pytest.importorskip("yaml")
    assert yaml.safe_load(built.files["competition.yaml"]) == built.yaml


def test_a_facet_without_gold_is_refused_when_bundling(
    tmp_path: Path, index_cache_dir: Path
) -> None:
    """BenchIE-E's gold is not published: a bundle scoring it would fail every submission."""
    res = run(
        "platform",
        "bundle",
        "-o",
        "b.zip",
        "--facet",
        "entity",
        cwd=tmp_path,
        cache=index_cache_dir,
    )
    assert res.returncode == 2 and "entity-facet gold" in res.stderr
    assert not (tmp_path / "b.zip").exists()


def test_a_private_gold_that_differs_from_its_manifest_is_refused(
    tmp_path: Path, index_cache_dir: Path
) -> None:
    store = tmp_path / "store"
    shutil.copytree(GOLD_DIR / "1.1.0", store / "1.1.0")
    with (store / "1.1.0" / "en" / "reference" / "carb_explicit.txt").open("a") as fh:
        fh.write("one more line\n")
    res = run(
        "platform", "bundle", "-o", "b.zip", "--private-gold", str(store), "--metric", "carb",
        cwd=tmp_path, cache=index_cache_dir,
    )  # fmt: skip
    assert res.returncode in (1, 2) and "carb_explicit.txt" in res.stderr
    assert not (tmp_path / "b.zip").exists()


def test_characters_beyond_the_bmp_are_written_as_themselves(
    tmp_path: Path, index_cache_dir: Path
) -> None:
    """JSON's ASCII escapes wrote an emoji as two surrogate escapes, which YAML reads as two
    lone surrogates."""
    res = run(
        "platform", "bundle", "-o", "b.zip", "--title", "BenchIE \U0001f600", *PHASES,
        cwd=tmp_path, cache=index_cache_dir,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    with zipfile.ZipFile(tmp_path / "b.zip") as zf:
        text = zf.read("competition.yaml").decode("utf-8")
    assert '"BenchIE \U0001f600"' in text
    assert read_yaml(text)["title"] == "BenchIE \U0001f600"


def test_a_local_image_name_is_said_to_need_a_registry(cli: RunCli, tmp_path: Path) -> None:
    res = cli("platform", "bundle", "-o", str(tmp_path / "b.zip"))
    assert res.exit_code == 0 and "is a local name: Codabench's workers pull it" in res.stderr
    res = cli("platform", "bundle", "-o", str(tmp_path / "c.zip"), "--image", "me/benchie:1")
    assert res.exit_code == 0 and "local name" not in res.stderr
