"""docs/ is the definition the package cites and the reference the README links to: no
citation of the old specification is left, every page the index and the README link to
exists (with the anchor named), the site's nav lists every page, and the README stays a
front door of at most 300 lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO as ROOT
from tests.readme_blocks import blocks

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
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    return re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", text)


def test_index_links_exist() -> None:
    links = [link for link in _index_links() if not link.startswith(("http:", "https:"))]
    assert links, "docs/index.md links to no page"
    missing = [link for link in links if not (DOCS / link).resolve().is_file()]
    assert not missing, f"docs/index.md links to missing pages: {missing}"


def test_index_links_every_topic() -> None:
    links = set(_index_links())
    assert set(TOPICS) <= links, f"docs/index.md does not link {sorted(set(TOPICS) - links)}"
    for topic in TOPICS:
        assert (DOCS / topic).is_file()


#: The README is a front door: what the tool is, the quick start, the tasks, the promises.
README_MAX_LINES = 300


def test_readme_is_a_front_door() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines (at most {README_MAX_LINES}): move reference "
        "material into docs/"
    )


def _slug(heading: str) -> str:
    """The anchor of a heading, as mkdocs and GitHub make it for these pages' headings."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower().replace("`", ""))
    return re.sub(r"\s+", "-", text)


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    return {_slug(h) for h in re.findall(r"^#{1,6}\s+(.+?)\s*$", text, re.M)}


def test_readme_links_to_docs_exist() -> None:
    """mkdocs checks the links between pages; the README is outside the site, so its links
    into docs/ are checked here, anchors included."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#\s]*)(?:#([^)\s]*))?\)", text)
    assert links, "README.md links to no page of docs/"
    for target, anchor in links:
        page = ROOT / target
        assert page.is_file(), f"README.md links to {target}, which does not exist"
        if anchor:
            assert anchor in _anchors(page), (
                f"README.md links to {target}#{anchor}: no such heading"
            )
    assert not re.search(r"\]\(#", text), "README.md links to an anchor of its own: use docs/"


def test_every_page_is_in_the_nav() -> None:
    """mkdocs --strict fails on a page left out of the nav; this says so without mkdocs."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    named = set(re.findall(r":\s*\"?([\w./-]+\.md)\"?\s*$", config, re.M))
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert pages == named, (
        f"not in the nav: {sorted(pages - named)}; no such page: {sorted(named - pages)}"
    )


def test_what_the_readme_writes_in_the_clone_is_ignored_by_git() -> None:
    """A newcomer who runs the README's commands in their clone is not left with untracked
    files: each file its blocks write at the top (``-o NAME``, ``> NAME``) is in .gitignore."""
    ignored = set((ROOT / ".gitignore").read_text(encoding="utf-8").splitlines())
    written = {
        name
        for b in blocks()
        if b.path == "README.md"
        for name in re.findall(r"(?:\s-o|>)\s+([\w.-]+)(?=\s|$)", b.text)
    }
    assert written, "the README's blocks write no file: the pattern is out of date"
    assert sorted(f"/{name}" for name in written if f"/{name}" not in ignored) == []
