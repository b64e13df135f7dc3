"""Build hooks (everything else is in pyproject.toml): the sdist and the wheel carry every
shipped gold version, so that an installed benchie scores outside a checkout, offline.

Git keeps the gold once, through DVC (``gold.dvc``); the build copies the versions the
registry ships from the checkout's ``gold/`` (pulled with ``dvc pull``) into the sdist's
``gold/`` and into the wheel's ``benchie_cli/data/gold/``, never into the source tree. A
version that is not pulled, or not the one released (its manifest's sha256 is pinned),
stops the build with a message that names it. An editable install copies nothing: it
reads the checkout's ``gold/``. docs/install.md says what goes where.

``BENCHIE_MYPYC=1`` compiles the modules ``benchie_cli/compiled.py`` lists with mypyc
(build_backend.py adds mypy to the build's requirements): the wheel is then one of this
platform and Python, its numbers the same bytes as the pure wheel's.
"""

from __future__ import annotations

import os
import shutil
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
# The wheel records each file's mode: what the build writes (its metadata) is 0644 under
# any caller's umask; what it copies is set by _normalise_modes.
os.umask(0o022)
sys.path.insert(0, str(HERE))  # the registry of this source tree (stdlib only)

import build_backend  # noqa: E402
from benchie_cli.compiled import MODULES  # noqa: E402
from benchie_cli.gold.shipped import shipped_versions, version_files  # noqa: E402

#: Where the gold is in a checkout and in the sdist.
SOURCE_GOLD = HERE / "gold"
#: Where the wheel keeps it, below the build's library directory.
PACKAGE_GOLD = Path("benchie_cli", "data", "gold")


def checked_gold() -> list[tuple[Path, Path]]:
    """``(file, path below a gold store's top)`` of every shipped version in the checkout's
    ``gold/``, each version checked first; the build stops (SystemExit), naming every
    version that is not there intact, before anything is written."""
    plan: list[tuple[Path, Path]] = []
    problems: list[str] = []
    for shipped in shipped_versions():
        try:
            files = version_files(SOURCE_GOLD, shipped)
        except ValueError as exc:
            problems.append(f"benchie-cli build: error: {exc}")
            continue
        plan += [(SOURCE_GOLD / shipped.relative / r, Path(shipped.relative) / r) for r in files]
    if problems:
        raise SystemExit("\n".join(problems))
    return plan


def copy_gold(plan: list[tuple[Path, Path]], target: Path) -> None:
    """Copy the checked files below ``target``, contents only, with the build's modes."""
    for source, relative in plan:
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)
        destination.chmod(0o644)


class BuildPyWithGold(build_py):
    """``build_py`` that adds the shipped gold to the wheel's package data."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            copy_gold(checked_gold(), Path(self.build_lib) / PACKAGE_GOLD)
            _normalise_modes(Path(self.build_lib) / "benchie_cli")


def _normalise_modes(top: Path) -> None:
    """0644 files and 0755 directories, whatever the umask of the clone (the package's
    files and the licence are copied with their modes): the wheel records each file's mode,
    and the same commit must give the same bytes on every machine."""
    for path in (top, *top.rglob("*")):
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() else 0o644)


class BdistWheelModes(bdist_wheel):
    """``bdist_wheel`` whose metadata files (the licence copied among them) have the
    modes every other file of the wheel has."""

    def egg2dist(self, egginfo_path: str, distinfo_path: str) -> None:
        super().egg2dist(egginfo_path, distinfo_path)
        _normalise_modes(Path(distinfo_path))


class SdistWithGold(sdist):
    """``sdist`` that adds the shipped gold, from which the wheel is then built."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        plan = checked_gold()  # before the release tree exists: a refusal leaves nothing
        super().make_release_tree(base_dir, files)
        copy_gold(plan, Path(base_dir) / "gold")


def compiled_extensions() -> list[Any]:
    """The extension modules of a compiled build, made in the wheel's build only
    (build_backend.py): the listed modules, compiled by mypyc into one shared library,
    ``benchie_cli__mypyc``, and a stub for each. None otherwise.

    mypyc type-checks what it compiles with the project's mypy settings; the modules those
    import are read for their types, their own errors silenced (``tox -e type`` checks
    them): the build environment has mypy, not the package's dependencies."""
    if not (build_backend.compiling() and build_backend.building_wheel):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(
            f"benchie-cli build: error: BENCHIE_MYPYC=1 needs mypy's mypyc, which is not "
            f"installed here: install {build_backend.MYPYC_REQUIREMENT} first (a build "
            "without isolation installs no build requirement)"
        ) from None

    sources = [str(Path(*name.split(".")).with_suffix(".py")) for name in MODULES]
    options = ["--follow-imports=silent"]
    extensions: list[Any] = mypycify([*options, *sources], opt_level="3", group_name="benchie_cli")
    return extensions


class BuildExtOnly(build_ext):
    """``build_ext`` that leaves in the build directory no extension module but this
    build's: setuptools reuses ``build/`` and packs all of it, so a module compiled by an
    earlier build and since taken off the list would ship as a stale stub."""

    def run(self) -> None:
        super().run()
        made = {Path(path).resolve() for path in self.get_outputs()}
        for suffix in EXTENSION_SUFFIXES:
            for path in Path(self.build_lib).rglob(f"*{suffix}"):
                if path.resolve() not in made:
                    path.unlink()


setup(
    cmdclass={
        "build_py": BuildPyWithGold,
        "build_ext": BuildExtOnly,
        "bdist_wheel": BdistWheelModes,
        "sdist": SdistWithGold,
    },
    ext_modules=compiled_extensions(),
)
