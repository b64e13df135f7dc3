"""The ``sh`` blocks of README.md and of the pages of docs/, and which test runs each: the
README and the documentation are test inputs.

Every block is run as written by ``tests/test_readme.py`` (in a fresh copy of the
repository; README.md first, then the pages of docs/ by name) or, when it needs a container
engine, by ``tests/test_readme_container.py``. The few commands no test can run say why in
:data:`NOT_RUN`; a block that is in no list fails :func:`test_every_block_has_a_runner`, so a
new command in the README or in docs/ cannot go untested silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import REPO as ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"

_FENCE = re.compile(r"^```sh\n(.*?)^```$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    path: str  # the file, relative to the repository: "README.md", "docs/analyze.md"
    line: int  # of the opening fence, 1-based
    text: str

    @property
    def needs_container(self) -> bool:
        return bool(re.search(r"(^|\s)(docker|scripts/build-image)\s", self.text))

    @property
    def key(self) -> str:
        """Where the block is, ``PATH:LINE``: unique among all blocks."""
        return f"{self.path}:{self.line}"

    def __str__(self) -> str:
        return f"{self.key}: {self.text.splitlines()[0]}"


def sources() -> list[Path]:
    """README.md, then every page of docs/ by name: the order their blocks run in."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def blocks_of(path: Path) -> list[Block]:
    text = path.read_text("utf-8")
    rel = path.relative_to(ROOT).as_posix()
    return [
        Block(rel, text.count("\n", 0, m.start()) + 1, m.group(1)) for m in _FENCE.finditer(text)
    ]


def blocks() -> list[Block]:
    """Every ``sh`` block of README.md and docs/, in the order they run."""
    return [block for path in sources() for block in blocks_of(path)]


#: Commands (lines of a block, by how they start) no test runs, and why.
NOT_RUN = {
    ".venv/bin/pip install -q tox && .venv/bin/tox": (
        "the test suite itself: CI runs exactly this (.ci/run); from a test it would recurse"
    ),
    ".venv/bin/tox ": (
        "tox environments of the test suite itself, which CI runs; a test checks that each "
        "environment named exists in tox.ini"
    ),
    "scripts/build-image --gold-version 2.0.0 -- --build-arg AWS_ACCESS_KEY_ID": (
        "needs a private gold remote that the image build can reach, with its credentials"
    ),
    ".venv/bin/benchie benchmark add ": (
        "needs the published Re-OIE2016 or WiRe57 file, which has no licence: benchie may not "
        "ship it, so no copy of the repository has it (tests/benchmarks/test_benchmark_add.py adds "
        "stand-ins with their sha256 pinned in its place, and the real files when "
        "$BENCHIE_EXTERNAL_DATA names them)"
    ),
    ".venv/bin/benchie platform bundle -o private.zip --gold-version 2.0.0 --private-gold ": (
        "needs an organiser's private gold store outside the repository "
        "(tests/platform/test_platform_bundle.py bundles a gold store as the private one)"
    ),
}


def first_command(block: Block) -> str:
    return block.text.splitlines()[0]


def _not_run_line(line: str) -> str | None:
    return next((why for start, why in NOT_RUN.items() if line.startswith(start)), None)


def runnable_text(block: Block) -> str:
    """The block without its commands that no test runs (see :data:`NOT_RUN`)."""
    kept = [line for line in block.text.splitlines() if _not_run_line(line) is None]
    return "".join(line + "\n" for line in kept)


def not_run(block: Block) -> str | None:
    """Why no command of ``block`` is run, if none is."""
    if runnable_text(block).strip():
        return None
    return _not_run_line(first_command(block))
