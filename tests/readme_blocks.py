"""The ``sh`` blocks of README.md, and which test runs each: the README is a test input.

Every block is run as written by ``tests/test_readme.py`` (in a fresh copy of the
repository) or, when it needs a container engine, by ``tests/test_readme_container.py``.
The few commands no test can run say why in :data:`NOT_RUN`; a block that is in no list fails
:func:`test_every_block_has_a_runner`, so a new README command cannot go untested silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"

_FENCE = re.compile(r"^```sh\n(.*?)^```$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    line: int  # of the opening fence, 1-based
    text: str

    @property
    def needs_container(self) -> bool:
        return bool(re.search(r"(^|\s)(docker|scripts/build-image)\s", self.text))

    def __str__(self) -> str:
        return f"README.md:{self.line}: {self.text.splitlines()[0]}"


def blocks() -> list[Block]:
    text = README.read_text("utf-8")
    return [Block(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in _FENCE.finditer(text)]


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
