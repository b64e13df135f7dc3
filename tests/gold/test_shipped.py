"""The check the build runs before it packs the shipped gold (benchie_cli.gold.shipped):
every shipped version of the checkout passes it, and each way a version can be wrong stops
it with a message that names the version."""

from __future__ import annotations

import ast
import configparser
import json
import shutil
from pathlib import Path

import pytest

from benchie_cli.gold import shipped as shipped_module
from benchie_cli.gold.shipped import ShippedVersion, shipped_versions, version_files
from benchie_cli.registry import BENCHMARKS
from tests.conftest import GOLD_DIR, REPO


def _carb() -> ShippedVersion:
    return next(s for s in shipped_versions() if s.relative == "carb/1.0.0")


def _copy(tmp_path: Path, shipped: ShippedVersion) -> Path:
    top = tmp_path / "gold"
    shutil.copytree(GOLD_DIR / shipped.relative, top / shipped.relative)
    return top


def test_the_shipped_versions_are_the_registrys_and_those_tox_pulls() -> None:
    found = {(s.benchmark, s.version, s.pin) for s in shipped_versions()}
    expected = {
        (name, v, pin)
        for name, b in BENCHMARKS.items()
        if not b.external
        for v, pin in b.shipped.items()
    }
    assert found == expected and len(found) == 6
    tox = configparser.ConfigParser()
    tox.read(REPO / "tox.ini")
    pulled = set(tox["testenv:gold"]["commands"].split()[3:])
    assert {f"gold/{s.relative}" for s in shipped_versions()} == pulled


def test_every_shipped_version_of_the_checkout_passes_with_its_files() -> None:
    for shipped in shipped_versions():
        directory = GOLD_DIR / shipped.relative
        listed = [
            f["path"] for f in json.loads((directory / "manifest.json").read_bytes())["files"]
        ]
        files = {p.as_posix() for p in version_files(GOLD_DIR, shipped)}
        assert files >= {"manifest.json", "ATTRIBUTION.md", *listed}
        assert files == {
            "manifest.json",
            *listed,
            *(p.name for p in directory.iterdir() if p.is_file()),
        }


def test_a_version_not_pulled_names_the_pull(tmp_path: Path) -> None:
    with pytest.raises(
        ValueError, match=r"gold carb 1\.0\.0 .* is not pulled: run `dvc pull gold/carb/1\.0\.0`"
    ):
        version_files(tmp_path / "gold", _carb())


def test_an_edited_manifest_is_not_the_released_one(tmp_path: Path) -> None:
    top = _copy(tmp_path, _carb())
    manifest = top / "carb/1.0.0/manifest.json"
    manifest.write_bytes(manifest.read_bytes().replace(b'"description": "', b'"description": "x'))
    with pytest.raises(ValueError, match="is not that of the released version"):
        version_files(top, _carb())


@pytest.mark.parametrize("damage", ["edit", "remove", "extra"])
def test_a_damaged_version_stops_the_build(tmp_path: Path, damage: str) -> None:
    top = _copy(tmp_path, _carb())
    gold = top / "carb/1.0.0/test/carb_test.tsv"
    if damage == "edit":
        gold.write_bytes(gold.read_bytes() + b"\n")
        expected = "differs from its manifest"
    elif damage == "remove":
        gold.unlink()
        expected = "test/carb_test.tsv is missing"
    else:
        (gold.parent / "carb_test.tsv~").write_bytes(b"backup")
        expected = "carb_test.tsv~ is not listed in the manifest"
    with pytest.raises(ValueError, match=expected):
        version_files(top, _carb())


def test_the_module_imports_only_the_standard_library_and_the_registry() -> None:
    """The build imports it where nothing but setuptools is installed: the standard library,
    the registry and textio (with errors, stops and records), which import nothing else at
    top level."""
    tree = ast.parse(Path(shipped_module.__file__).read_text())
    imported = {
        alias.name if isinstance(node, ast.Import) else str(node.module)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    project = {m for m in imported if m.startswith("benchie_cli")}
    assert project == {"benchie_cli.registry", "benchie_cli.textio"}
    # textio's own, and the base of the registry's and errors' records
    allowed = {"benchie_cli", "benchie_cli.errors", "benchie_cli.stops", "benchie_cli.records"}
    for module in ("registry", "textio", "errors", "stops", "records"):
        source = ast.parse((REPO / "benchie_cli" / f"{module}.py").read_text())
        top_level = {
            node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            for node in source.body
            if isinstance(node, (ast.Import, ast.ImportFrom))
        }
        third_party = {
            m
            for m in top_level
            if m
            and m not in allowed
            and m.split(".")[0] in ("benchie_cli", "orjson", "click", "numpy", "platformdirs")
        }
        assert not third_party, (module, third_party)


def test_only_the_attribution_and_the_licence_lie_unlisted_beside_the_manifest(
    tmp_path: Path,
) -> None:
    top = _copy(tmp_path, _carb())
    (top / "carb/1.0.0/notes.json").write_text("{}")
    with pytest.raises(ValueError, match=r"notes\.json lies beside the manifest, unlisted"):
        version_files(top, _carb())
