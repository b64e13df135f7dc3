"""The build backend: setuptools' own, plus one requirement for a compiled build.

``BENCHIE_MYPYC=1`` asks for a build whose hot modules are compiled by mypyc
(``benchie_cli/compiled.py``, setup.py). mypyc is part of mypy, so such a build needs mypy,
pinned here so that a compiled build of a commit is the one its tests ran against; a
frontend installs it into the isolated build environment from this hook. Any other build
needs nothing beyond setuptools. setuptools recommends this in-tree wrapper for build
requirements that depend on the build ("Dynamic build dependencies" in its
documentation). Editable installs are never compiled: a compiled module in the checkout
would shadow its source after the next edit.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook setuptools defines)

#: The environment variable that asks for a compiled build, and the mypy it is built with.
COMPILE = "BENCHIE_MYPYC"
MYPYC_REQUIREMENT = "mypy==2.4.1"


#: True while setuptools runs setup.py only to learn its requirements, before mypy is there.
asking_requirements = False


def compiling() -> bool:
    """Whether this build compiles (``BENCHIE_MYPYC=1``); any other value but unset or 0
    is refused, so that a typo does not give a pure build silently."""
    value = os.environ.get(COMPILE, "0")
    if value not in ("0", "1"):
        raise SystemExit(f"benchie-cli build: error: {COMPILE}={value!r}: use 1 (compile) or 0")
    return value == "1"


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    global asking_requirements
    asking_requirements = True
    try:
        requires: list[str] = _setuptools.get_requires_for_build_wheel(config_settings)
    finally:
        asking_requirements = False
    return [*requires, MYPYC_REQUIREMENT] if compiling() else requires


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    if compiling():
        raise SystemExit(
            f"benchie-cli build: error: {COMPILE}=1 compiles a regular install only: an "
            "editable install reads the checkout's sources (unset it, or drop -e)"
        )
    requires: list[str] = _setuptools.get_requires_for_build_editable(config_settings)
    return requires
