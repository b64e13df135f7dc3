"""Build hooks (everything else is in pyproject.toml): the sdist and the wheel carry every
shipped gold version, so that an installed benchie scores outside a checkout, offline.

Git keeps the gold once, through DVC (``gold.dvc``); the build copies the versions the
registry ships from the checkout's ``gold/`` (pulled with ``dvc pull``) into the sdist's
``gold/`` and into the wheel's ``benchie_cli/data/gold/``, never into the source tree. A
version that is not pulled, or not the one released (its manifest's sha256 is pinned),
stops the build with a message that names it. An editable install copies nothing: it
reads the checkout's ``gold/``. docs/install.md says what goes where.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the registry of this source tree (stdlib only)

from benchie_cli.gold.shipped import shipped_versions, version_files  # noqa: E402

#: Where the gold is in a checkout and in the sdist.
SOURCE_GOLD = HERE / "gold"
#: Where the wheel keeps it, below the build's library directory.
PACKAGE_GOLD = Path("benchie_cli", "data", "gold")


def checked_gold() -> list[tuple[Path, Path]]:
    """``(file, path below a gold store's top)`` of every shipped version in the checkout's
    ``gold/``, each version checked first; the build stops (SystemExit), naming the first
    version that is not there intact, before anything is written."""
    plan: list[tuple[Path, Path]] = []
    try:
        for shipped in shipped_versions():
            plan += [
                (SOURCE_GOLD / shipped.relative / rel, Path(shipped.relative) / rel)
                for rel in version_files(SOURCE_GOLD, shipped)
            ]
    except ValueError as exc:
        raise SystemExit(f"benchie-cli build: error: {exc}") from None
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


class SdistWithGold(sdist):
    """``sdist`` that adds the shipped gold, from which the wheel is then built."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        plan = checked_gold()  # before the release tree exists: a refusal leaves nothing
        super().make_release_tree(base_dir, files)
        copy_gold(plan, Path(base_dir) / "gold")


setup(cmdclass={"build_py": BuildPyWithGold, "sdist": SdistWithGold})
