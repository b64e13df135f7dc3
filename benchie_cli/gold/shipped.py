"""The gold versions benchie ships, and the check that a directory holds them intact.

Building the sdist or the wheel (``setup.py``) copies each shipped version from the
checkout's ``gold/`` into the distribution, as package data of the wheel
(``benchie_cli/data/gold/``, read by :mod:`benchie_cli.gold.dirs` as the installed
package's store). The build runs in an environment with nothing but setuptools, so this
module imports the standard library, the registry and textio only (``tests/test_architecture.py``
holds it to that). It checks what ``gold verify`` checks of a shipped version, so that a
build never packs a version that is not pulled, edited, or not the one released:

- the manifest's sha256 is the registry's pin (``Benchmark.shipped``);
- every file the manifest lists is there with its sha256;
- nothing unlisted lies in a language's or split's directory (it would be taken for gold),
  and beside the manifest only its attribution and licence (:data:`BESIDE`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from benchie_cli.registry import BENCHMARKS
from benchie_cli.textio import sha256_file

MANIFEST = "manifest.json"
#: The files a version keeps beside its manifest without listing them: whose data it is.
BESIDE = ("ATTRIBUTION.md", "LICENSE")


@dataclass(frozen=True, slots=True)
class ShippedVersion:
    """One shipped version: where it lies below a gold store's top, and its pin."""

    benchmark: str
    version: str
    #: The sha256 of its manifest's bytes.
    pin: str
    #: Its directory below the store's top: ``1.1.0``, ``carb/1.0.0``.
    relative: str


def shipped_versions() -> list[ShippedVersion]:
    """Every version benchie ships, in the registry's order. An external benchmark's pins
    are those of the manifest ``benchmark add`` writes for a user's copy: not shipped."""
    return [
        ShippedVersion(name, version, pin, f"{b.store_dir}/{version}" if b.store_dir else version)
        for name, b in BENCHMARKS.items()
        if not b.external
        for version, pin in b.shipped.items()
    ]


def version_files(top: Path, shipped: ShippedVersion) -> list[Path]:
    """The files of ``shipped`` under the gold store ``top`` to put in a distribution
    (relative to its directory): the manifest, every file it lists, and the files beside
    the manifest (attribution, licence). A problem is a :class:`ValueError` that names
    the version and says how to get it right."""
    directory = top / shipped.relative
    where = f"gold {shipped.benchmark} {shipped.version} ({directory})"
    manifest = directory / MANIFEST
    if not manifest.is_file():
        raise ValueError(
            f"{where} is not pulled: run `dvc pull {top.name}/{shipped.relative}` in the "
            "checkout first (every shipped version goes into the wheel)"
        )
    raw = manifest.read_bytes()
    sha = hashlib.sha256(raw).hexdigest()
    if sha != shipped.pin:
        raise ValueError(
            f"{where}: manifest sha256 {sha} is not that of the released version "
            f"({shipped.pin}); restore it with `dvc checkout {top.name}/{shipped.relative}`"
        )
    listed: dict[str, str] = {}
    for entry in json.loads(raw)["files"]:
        path = str(entry["path"])
        if ".." in Path(path).parts or Path(path).is_absolute():
            raise ValueError(f"{where}: the manifest lists {path!r}, outside the version")
        listed[path] = str(entry["sha256"])
    for path, expected in listed.items():
        file = directory / path
        if not file.is_file():
            raise ValueError(f"{where}: {path} is missing; run `benchie gold verify`")
        if sha256_file(file) != expected:
            raise ValueError(f"{where}: {path} differs from its manifest (`benchie gold verify`)")
    beside = sorted(p.name for p in directory.iterdir() if p.is_file() and p.name != MANIFEST)
    stray = [name for name in beside if name not in (*BESIDE, *listed)]
    if stray:
        raise ValueError(
            f"{where}: {stray[0]} lies beside the manifest, unlisted (only "
            f"{' and '.join(BESIDE)} may); remove it"
        )
    for found in sorted(directory.glob("*/**/*")):
        rel = found.relative_to(directory).as_posix()
        if found.is_file() and rel not in listed:
            raise ValueError(f"{where}: {rel} is not listed in the manifest; remove it")
    return sorted({Path(p) for p in (MANIFEST, *beside, *listed)})
