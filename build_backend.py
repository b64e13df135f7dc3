"""The build backend: setuptools' own, plus what a compiled build needs.

``BENCHIE_MYPYC=1`` asks for a wheel whose hot modules are compiled by mypyc
(``benchie_cli/compiled.py``, setup.py). mypyc is part of mypy, so such a build needs mypy,
pinned here so that a compiled build of a commit is the one its tests ran against; a
frontend installs it into the isolated build environment from
:func:`get_requires_for_build_wheel`. setuptools recommends this in-tree wrapper for build
requirements that depend on the build ("Dynamic build dependencies" in its documentation).

setup.py compiles only inside :func:`build_wheel` (:data:`building_wheel`): setuptools runs
setup.py for every hook (the requirements, the metadata, the sdist), and only the wheel
holds compiled modules. Editable installs are never compiled, and are refused when asked to
be: a compiled module in the checkout would shadow its source after the next edit.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook setuptools defines)

#: The environment variable that asks for a compiled build, and the mypy it is built with.
COMPILE = "BENCHIE_MYPYC"
MYPYC_REQUIREMENT = "mypy==2.4.1"

#: True while :func:`build_wheel` runs: the one time setup.py compiles.
building_wheel = False


def compiling() -> bool:
    """Whether this build compiles (``BENCHIE_MYPYC=1``); any other value but unset or 0
    is refused, so that a typo does not give a pure build silently."""
    value = os.environ.get(COMPILE, "0")
    if value not in ("0", "1"):
        raise SystemExit(f"benchie-cli build: error: {COMPILE}={value!r}: use 1 (compile) or 0")
    return value == "1"


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements, and the pinned mypy when compiling."""
    requires: list[str] = _setuptools.get_requires_for_build_wheel(config_settings)
    return [*requires, MYPYC_REQUIREMENT] if compiling() else requires


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """setuptools' wheel, compiled when :func:`compiling` (setup.py asks
    :data:`building_wheel`)."""
    global building_wheel
    building_wheel = True
    try:
        name: str = _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    finally:
        building_wheel = False
    return name


def _refuse_editable() -> None:
    if compiling():
        raise SystemExit(
            f"benchie-cli build: error: {COMPILE}=1 compiles a regular install only: an "
            "editable install reads the checkout's sources (unset it, or drop -e)"
        )


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements; refused when compiling (the module's docstring)."""
    _refuse_editable()
    requires: list[str] = _setuptools.get_requires_for_build_editable(config_settings)
    return requires


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    """setuptools' metadata; refused when compiling (a frontend without build isolation
    skips the requirements hook)."""
    _refuse_editable()
    name: str = _setuptools.prepare_metadata_for_build_editable(metadata_directory, config_settings)
    return name


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """setuptools' editable wheel; refused when compiling."""
    _refuse_editable()
    name: str = _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
    return name
