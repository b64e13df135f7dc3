"""docs/ is the definition the package cites: no citation of the old specification is left,
and every page the index links to exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FORBIDDEN = ("SPEC §", "SPEC.md")
#: Pages the index must link to: one per topic.
TOPICS = ("formats.md", "metric.md", "facets.md", "implicit.md", "profiling.md")


def _cited_files() -> list[Path]:
    """Every text file of the package (compiled caches skipped), and the README."""
    files = [
        path
        for path in sorted((ROOT / "benchie_cli").rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    ]
    return [*files, ROOT / "README.md"]


@pytest.mark.parametrize("path", _cited_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_spec_citation(path: Path) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        pytest.skip("not a text file")
    for needle in FORBIDDEN:
        assert needle not in text, f"{path.relative_to(ROOT)} cites {needle!r}; cite docs/ instead"


def _index_links() -> list[str]:
    text = (DOCS / "README.md").read_text(encoding="utf-8")
    return re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", text)


def test_index_links_exist() -> None:
    links = [link for link in _index_links() if not link.startswith(("http:", "https:"))]
    assert links, "docs/README.md links to no page"
    missing = [link for link in links if not (DOCS / link).resolve().is_file()]
    assert not missing, f"docs/README.md links to missing pages: {missing}"


def test_index_links_every_topic() -> None:
    links = set(_index_links())
    assert set(TOPICS) <= links, f"docs/README.md does not link {sorted(set(TOPICS) - links)}"
    for topic in TOPICS:
        assert (DOCS / topic).is_file()
