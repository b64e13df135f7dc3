"""Adding and releasing gold versions: ``benchie gold new | release | manifest`` and what
``gold verify``, ``gold list`` and ``score`` say about the versions they make.

Every test works on copies in tmp_path: a copy of the repository's store, a source
directory holding a tiny gold cut from the real one, and, for DVC, a scratch git + DVC
repository with local directory remotes. The repository's gold/, dvc-store/ and .dvc/ are
only ever read.

The tiny gold is the first two English sentences of gold 1.1.0 (counted by hand: sentence 1
has clusters 1-5, sentence 2 clusters 1-7, so 2 sentences and 12 synsets) and, where a second
language is needed, the first German sentence (clusters 1-5: 1 sentence, 5 synsets).
"""

from __future__ import annotations

import datetime
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

import benchie_cli.gold.lifecycle as lifecycle
from benchie_cli.errors import BenchieError
from benchie_cli.gold import dvcfile
from tests.conftest import GOLD_DIR, REPO, RunCli

EN_GOLD = GOLD_DIR / "1.1.0" / "en" / "default" / "benchie_gold_annotations_en.txt"
DE_GOLD = GOLD_DIR / "1.1.0" / "de" / "default" / "benchie_gold_annotations_de.txt"
EN_REL = "en/default/tiny_en.txt"
DE_REL = "de/default/tiny_de.txt"
ATTRIBUTION = b"Tiny test gold cut from BenchIE (CC BY 4.0).\n"
DRAFT_WARNING = "warning: gold 2.0.0 is a draft"
#: Two extractions matching synset 1 of sentence 1 and synset 1 of sentence 2.
SUBMISSION = "1\tHe\tserved as\tthe first Prime Minister of Australia\n2\tGraner\thandcuffed\thim\n"


def first_sentences(path: Path, count: int) -> bytes:
    """The file's lines up to (not including) the header of sentence ``count + 1``."""
    data = path.read_bytes()
    end = data.index(f"\nsent_id:{count + 1}\t".encode()) + 1
    return data[:end]


EN_TINY = first_sentences(EN_GOLD, 2)
DE_TINY = first_sentences(DE_GOLD, 1)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def repo_output(path: str) -> dvcfile.Output:
    """The output of the repository's gold.dvc whose path is ``path`` (``gold/1.1.0``)."""
    repo = dvcfile.load(REPO / "gold.dvc")
    at = repo.position(path)
    assert at is not None, path
    return repo.outs[at]


def copy_store(tmp_path: Path, *, versions: tuple[str, ...] = ("1.0.0", "1.1.0")) -> Path:
    """A private store: the repository's versions asked for, tracked by a gold.dvc of the
    store's own (their outputs of the repository's, with paths relative to the store)."""
    root = tmp_path / "store"
    root.mkdir()
    for version in versions:
        shutil.copytree(GOLD_DIR / version, root / version)
        track(root, repo_output(f"gold/{version}").with_key("path", version))
    return root


def track(store: Path, out: dvcfile.Output | str, remote: str | None = None) -> None:
    """Add an output to the store's own gold.dvc: ``out``, or one made up for the version
    ``out`` (on ``remote``), as DVC would track a version that is not pulled here."""
    if isinstance(out, str):
        lines = [f"md5: {sha256(out.encode())[:32]}.dir", "size: 1", "nfiles: 1", "hash: md5"]
        made = dvcfile.Output(tuple((line.split(":")[0], (line,)) for line in lines))
        out = made.with_key("path", out).with_key("remote", remote)
    dvc_file = store / "gold.dvc"
    dvc_file.write_bytes(dvcfile.load(dvc_file).with_output(out).render())


def make_source(tmp_path: Path, *, de: bool = False, name: str = "src") -> Path:
    """A source directory as an organiser would hand it to ``gold new``."""
    src = tmp_path / name
    (src / "en" / "default").mkdir(parents=True)
    (src / EN_REL).write_bytes(EN_TINY)
    (src / "ATTRIBUTION.md").write_bytes(ATTRIBUTION)
    if de:
        (src / "de" / "default").mkdir(parents=True)
        (src / DE_REL).write_bytes(DE_TINY)
    return src


def snapshot(root: Path) -> dict[str, object]:
    """Every entry under ``root``, hidden ones (``.new-*``) included: bytes of files, the
    target of links, and a marker for directories."""
    out: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                out[rel] = "dir"
            elif path.is_file():
                out[rel] = path.read_bytes()
            else:
                out[rel] = "special"
    return out


def new_args(version: str, src: Path, store: Path, *extra: str) -> list[str]:
    return [
        "gold",
        "new",
        version,
        "--from",
        str(src),
        "--description",
        "tiny test gold",
        "--license",
        "CC BY 4.0",
        "--gold-dir",
        str(store),
        *extra,
    ]


def manifest_of(store: Path, version: str) -> dict[str, Any]:
    data = orjson.loads((store / version / "manifest.json").read_bytes())
    assert isinstance(data, dict)
    return data


def leftovers(store: Path) -> list[str]:
    return sorted(p.name for p in store.iterdir() if p.name.startswith(".new-"))


def run_benchie(*args: str | Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m benchie_cli`` as a process, with a timeout: a hang is a failure here."""
    return subprocess.run(
        [sys.executable, "-m", "benchie_cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# --------------------------------------------------------------------------- gold new


def test_tiny_gold_is_what_the_counts_say() -> None:
    """The hand count the expectations rest on: the headers of the cut."""
    headers = [ln for ln in EN_TINY.decode().splitlines() if not ln.startswith(("He ", "Gr", "fe"))]
    assert headers[0].startswith("sent_id:1\tHe served as the first Prime Minister")
    assert headers[1:6] == [f"1--> Cluster {n}:" for n in range(1, 6)]
    assert headers[6:8] == [
        "",
        "sent_id:2\tGraner handcuffed him to the bars of a cell window "
        "and left him there , feet dangling off the floor , for nearly five hours .",
    ]
    assert headers[8:] == [f"2--> Cluster {n}:" for n in range(1, 8)] + [""]
    de_headers = [ln for ln in DE_TINY.decode().splitlines() if not ln.startswith("Er ")]
    assert de_headers[0].startswith("sent_id:1\tEr diente als erster Premierminister")
    assert de_headers[1:] == [f"1--> Cluster {n}:" for n in range(1, 6)] + [""]


def test_new_version_manifest_files_changelog_and_score(
    cli: RunCli, tmp_path: Path, alone: None
) -> None:
    store, src = copy_store(tmp_path), make_source(tmp_path)
    result = cli(*new_args("2.0.0", src, store, "--no-dvc"))
    assert result.exit_code == 0, result.stderr
    version_dir = store / "2.0.0"

    gold_sha = sha256(EN_TINY)
    assert manifest_of(store, "2.0.0") == {
        "schema": 1,
        "version": "2.0.0",
        "description": "tiny test gold",
        "license": "CC BY 4.0",
        # released: no "status" key, so that released manifests keep their pinned bytes
        "derived_facets": {"concat": "default", "minimal": "default"},
        "files": [
            {
                "path": EN_REL,
                "language": "en",
                "facet": "default",
                "kind": "gold",
                "sha256": gold_sha,
                "bytes": len(EN_TINY),
                "sentences": 2,
                "synsets": 12,
                "upstream_path": None,
            }
        ],
    }
    assert (version_dir / EN_REL).read_bytes() == EN_TINY
    assert (version_dir / "ATTRIBUTION.md").read_bytes() == ATTRIBUTION
    assert sorted(p.relative_to(version_dir).as_posix() for p in version_dir.rglob("*")) == [
        "ATTRIBUTION.md",
        "en",
        "en/default",
        EN_REL,
        "manifest.json",
    ]
    assert leftovers(store) == []
    assert not (store / "2.0.0.dvc").exists()  # --no-dvc
    assert "2.0.0" not in (store / "gold.dvc").read_text("utf-8")

    manifest_sha = sha256((version_dir / "manifest.json").read_bytes())
    assert "not tracked by DVC (--no-dvc)" in result.stderr
    assert f"manifest sha256 {manifest_sha}" in result.stderr
    out = result.stdout
    assert "CHANGELOG.md entry:" in out
    assert re.search(r"^## \[gold-2\.0\.0\] - \d{4}-\d{2}-\d{2}$", out, re.MULTILINE)
    assert "\ntiny test gold\n" in out
    assert (
        f"- `{EN_REL}` (en, default facet): 2 sentences, 12 fact synsets, "
        f"sha256 `{gold_sha[:12]}…`." in out
    )
    assert "- Licence: CC BY 4.0." in out
    assert f"- Manifest sha256 `{manifest_sha}`." in out
    assert "dvc push" not in out  # nothing tracked, so no push to suggest

    sub = tmp_path / "sys.tsv"
    sub.write_text(SUBMISSION, "utf-8")
    scored = cli(
        "score", "--gold-dir", store, "--gold-version", "2.0.0", "--format", "json", str(sub)
    )
    assert scored.exit_code == 0, scored.stderr
    report = orjson.loads(scored.stdout)
    assert report["gold"]["version"] == "2.0.0"
    no_findings = {"errors": 0, "warnings": 0, "reviewed_errors": 0, "new_errors": []}
    assert report["gold"]["files"] == [
        {"path": f"2.0.0/{EN_REL}", "sha256": gold_sha, "findings": no_findings}
    ]
    assert f"gold:2.0.0@{gold_sha[:12]}" in report["signature"]
    (system,) = report["systems"]
    assert (system["tp"], system["fp"], system["fn"]) == (2, 0, 10)  # 12 synsets, 2 found
    assert "is a draft" not in scored.stderr

    verify = cli("gold", "verify", "--gold-dir", store)
    assert verify.exit_code == 0, verify.stderr
    assert verify.stdout.splitlines() == [
        "1.0.0: released, shipped with benchie-cli, 4 file(s)",
        "1.1.0: released, shipped with benchie-cli, 4 file(s)",
        "2.0.0: released, 1 file(s)",
        "ok: 9 file(s) in 3 version(s) match their manifests",
    ]
    listed = cli("gold", "list", "--gold-dir", store)
    assert listed.exit_code == 0
    rows = [r.split() for r in listed.stdout.splitlines()[2:]]
    assert rows[-1][:7] == ["2.0.0", "en", "default,", "concat", "(from", "default),", "minimal"]


def test_changelog_stub_in_full(tmp_path: Path) -> None:
    """The whole CHANGELOG entry, for a version with two languages and a reference file
    (files in path order: de, en, then en/reference)."""
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path, de=True)
    (src / "en" / "reference").mkdir()
    notes = b"not gold\n"
    (src / "en" / "reference" / "notes.txt").write_bytes(notes)
    added = lifecycle.new_version(
        store, "2.0.0", src, description="tiny test gold", license="CC BY 4.0", use_dvc=False
    )
    assert added.dvc_file is None and added.remote is None
    assert added.manifest_sha256 == sha256((store / "2.0.0" / "manifest.json").read_bytes())
    assert lifecycle.changelog_stub(added, datetime.date(2024, 5, 1)) == (
        "## [gold-2.0.0] - 2024-05-01\n"
        "\n"
        "tiny test gold\n"
        "\n"
        "### Added\n"
        f"- `{DE_REL}` (de, default facet): 1 sentence, 5 fact synsets, "
        f"sha256 `{sha256(DE_TINY)[:12]}…`.\n"
        f"- `{EN_REL}` (en, default facet): 2 sentences, 12 fact synsets, "
        f"sha256 `{sha256(EN_TINY)[:12]}…`.\n"
        f"- `en/reference/notes.txt` (reference, not scored), "
        f"sha256 `{sha256(notes)[:12]}…`.\n"
        "- Licence: CC BY 4.0.\n"
        f"- Manifest sha256 `{added.manifest_sha256}`.\n"
    )


def test_new_from_a_version_of_the_store_itself(cli: RunCli, tmp_path: Path) -> None:
    """``--from gold/1.1.0``: its manifest.json is not copied but rebuilt (new version
    number, same hashes and counts); the source version is left as it was."""
    store = copy_store(tmp_path, versions=("1.1.0",))
    before = snapshot(store / "1.1.0")
    result = cli(*new_args("1.2.0", store / "1.1.0", store, "--no-dvc"))
    assert result.exit_code == 0, result.stderr
    assert snapshot(store / "1.1.0") == before
    old, new = manifest_of(store, "1.1.0"), manifest_of(store, "1.2.0")
    assert new["version"] == "1.2.0" and new["description"] == "tiny test gold"
    assert new["files"] == old["files"]
    assert (store / "1.2.0" / "ATTRIBUTION.md").read_bytes() == (
        store / "1.1.0" / "ATTRIBUTION.md"
    ).read_bytes()
    assert leftovers(store) == []


def test_new_keeps_upstream_paths_of_identical_files_only(tmp_path: Path) -> None:
    """A source that holds a manifest (a copied version): the upstream_path of a file it
    lists with the same sha256 is kept, that of a changed file is not."""
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path, de=True)
    (src / "manifest.json").write_bytes(
        orjson.dumps(
            {
                "schema": 1,
                "version": "9.9.9",
                "files": [
                    {"path": EN_REL, "sha256": sha256(EN_TINY), "upstream_path": "up/en.txt"},
                    {"path": DE_REL, "sha256": "0" * 64, "upstream_path": "up/de.txt"},
                ],
            }
        )
    )
    lifecycle.new_version(store, "2.0.0", src, description="d", license="l", use_dvc=False)
    manifest = manifest_of(store, "2.0.0")
    assert manifest["version"] == "2.0.0"
    files = manifest["files"]
    assert isinstance(files, list)
    assert {f["path"]: f["upstream_path"] for f in files} == {EN_REL: "up/en.txt", DE_REL: None}


def test_new_from_a_directory_inside_the_store(cli: RunCli, tmp_path: Path, alone: None) -> None:
    store = copy_store(tmp_path, versions=("1.1.0",))
    src = make_source(store, name="incoming")
    result = cli(*new_args("2.0.0", src, store, "--no-dvc"))
    assert result.exit_code == 0, result.stderr
    assert (store / "2.0.0" / EN_REL).read_bytes() == EN_TINY
    assert (src / EN_REL).read_bytes() == EN_TINY  # copied, not moved
    listed = cli("gold", "list", "--gold-dir", store, "--format", "json")
    assert [row["version"] for row in orjson.loads(listed.stdout)] == ["1.1.0"] * 3 + ["2.0.0"]


def test_new_version_is_readable_by_others_under_umask_077(tmp_path: Path) -> None:
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path)
    old = os.umask(0o077)
    try:
        lifecycle.new_version(
            store, "2.0.0", src, description="d", license="l", draft=True, use_dvc=False
        )
        version_dir = store / "2.0.0"
        modes = {
            p.relative_to(store).as_posix(): p.stat().st_mode & 0o777
            for p in (version_dir, *version_dir.rglob("*"))
        }
        assert modes == {
            "2.0.0": 0o755,
            "2.0.0/en": 0o755,
            "2.0.0/en/default": 0o755,
            f"2.0.0/{EN_REL}": 0o644,
            "2.0.0/ATTRIBUTION.md": 0o644,
            "2.0.0/manifest.json": 0o644,
        }
        lifecycle.release_version(store, "2.0.0", use_dvc=False)
        assert (version_dir / "manifest.json").stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


def test_gold_manifest_keeps_the_manifest_readable_under_umask_077(
    cli: RunCli, tmp_path: Path
) -> None:
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path)
    assert cli(*new_args("2.0.0", src, store, "--no-dvc", "--draft")).exit_code == 0
    old = os.umask(0o077)
    try:
        assert cli("gold", "manifest", store / "2.0.0").exit_code == 0
    finally:
        os.umask(old)
    assert (store / "2.0.0" / "manifest.json").stat().st_mode & 0o777 == 0o644


# --------------------------------------------------------------------------- refusals


def _hidden_file(src: Path) -> None:
    (src / "en" / "default" / ".tiny_en.txt.swp").write_bytes(b"x")


def _hidden_dir(src: Path) -> None:
    (src / ".git").mkdir()
    (src / ".git" / "HEAD").write_bytes(b"ref: refs/heads/main\n")


def _unknown_language(src: Path) -> None:
    (src / "fr" / "default").mkdir(parents=True)


def _derived_facet_dir(src: Path) -> None:
    (src / "en" / "minimal").mkdir()  # minimal is derived at load time, never a file


def _nested_dir(src: Path) -> None:
    (src / "en" / "default" / "old").mkdir()


def _file_in_language_dir(src: Path) -> None:
    (src / "en" / "notes.txt").write_bytes(b"notes\n")


def _two_default_files(src: Path) -> None:
    (src / "en" / "default" / "tiny_en_v2.txt").write_bytes(EN_TINY)


def _only_reference(src: Path) -> None:
    (src / EN_REL).unlink()
    (src / "en" / "reference").mkdir()
    (src / "en" / "reference" / "carb.txt").write_bytes(b"x\n")


def _symlinked_language_dir(src: Path) -> None:
    elsewhere = src.parent / "elsewhere" / "de" / "default"
    elsewhere.mkdir(parents=True)
    (elsewhere / "tiny_de.txt").write_bytes(DE_TINY)
    (src / "de").symlink_to(elsewhere.parent)


def _non_utf8_name(src: Path) -> None:
    with open(os.path.join(os.fsencode(src), b"en", b"default", b"\xff.txt"), "wb") as fh:
        fh.write(EN_TINY)


REFUSED_SOURCES = {
    "hidden file": (_hidden_file, "hidden file en/default/.tiny_en.txt.swp"),
    "hidden directory": (_hidden_dir, "hidden file .git"),
    "unknown language": (_unknown_language, "unexpected directory fr: gold files go in"),
    "derived facet": (_derived_facet_dir, "unexpected directory en/minimal"),
    "nested directory": (_nested_dir, "unexpected directory en/default/old"),
    "file in language dir": (_file_in_language_dir, "unexpected file en/notes.txt"),
    "two default files": (
        _two_default_files,
        "en/default/ holds tiny_en.txt and tiny_en_v2.txt: one gold file a language and facet",
    ),
    "only reference files": (_only_reference, "no gold file in it"),
    "symlinked language dir": (
        _symlinked_language_dir,
        "de is a symbolic link to a directory: copy the directory in",
    ),
    "non-UTF-8 file name": (_non_utf8_name, "file name en/default/\\xff.txt is not UTF-8 text"),
}


@pytest.mark.parametrize("case", REFUSED_SOURCES)
def test_source_layout_refusals_write_nothing(cli: RunCli, tmp_path: Path, case: str) -> None:
    store, src = copy_store(tmp_path, versions=("1.1.0",)), make_source(tmp_path)
    damage, message = REFUSED_SOURCES[case]
    damage(src)
    before = snapshot(store)
    result = cli(*new_args("2.0.0", src, store, "--no-dvc"))
    assert result.exit_code == 2
    assert message in result.stderr
    assert f"{src}: error: " in result.stderr  # the user's directory, not a temporary one
    assert snapshot(store) == before


@pytest.mark.parametrize("kind", ["fifo", "symlink loop"])
def test_special_files_are_refused_without_hanging(tmp_path: Path, kind: str) -> None:
    """A FIFO opened for reading would block forever; a symlink loop has no end: both are
    refused as not regular files (the run has a timeout, a hang fails the test)."""
    store, src = copy_store(tmp_path, versions=("1.1.0",)), make_source(tmp_path)
    special = src / "en" / "reference" / "special.txt"
    special.parent.mkdir()
    if kind == "fifo":
        os.mkfifo(special)
    else:
        special.symlink_to(special.name)
    before = snapshot(store)
    proc = run_benchie(*new_args("2.0.0", src, store, "--no-dvc"), timeout=30)
    assert proc.returncode == 2, proc.stderr
    assert "en/reference/special.txt is not a regular file" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert snapshot(store) == before


def test_the_store_itself_is_no_source(cli: RunCli, tmp_path: Path) -> None:
    store = copy_store(tmp_path, versions=("1.1.0",))
    before = snapshot(store)
    result = cli(*new_args("2.0.0", store, store, "--no-dvc"))
    assert result.exit_code == 2
    assert f"{store}: error: unexpected directory 1.1.0" in result.stderr
    assert snapshot(store) == before


def test_validation_errors_name_the_source_file(cli: RunCli, tmp_path: Path) -> None:
    store, src = copy_store(tmp_path, versions=("1.1.0",)), make_source(tmp_path)
    lines = EN_TINY.decode().splitlines(keepends=True)
    # line 3: "He --> served as --> [the] [first] Prime Minister [of Australia]"
    assert lines[2].startswith("He --> served as --> [the] [first]")
    lines[2] = lines[2].replace("[the] [first]", "[the [first]")
    # line 8, the header "1--> Cluster 3:", loses its cluster number
    assert lines[7] == "1--> Cluster 3:\n"
    lines[7] = "1--> Cluster :\n"
    (src / EN_REL).write_text("".join(lines), "utf-8")
    before = snapshot(store)
    result = cli(*new_args("2.0.0", src, store, "--no-dvc"))
    assert result.exit_code == 1
    errors = [ln for ln in result.stderr.splitlines() if ": error: " in ln]
    shown = f"{src}/{EN_REL}"
    assert [ln.split(": error: ")[0] for ln in errors[:-1]] == [f"{shown}:3", f"{shown}:8"]
    assert errors[0].endswith("[lone-bracket]")
    assert "nothing was written" in errors[-1] and "2 error(s)" in errors[-1]
    assert ".new-" not in result.stderr
    assert snapshot(store) == before


def test_refused_version_numbers(cli: RunCli, tmp_path: Path) -> None:
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path)
    before = snapshot(store)
    for bad in [
        "2.0",
        "v2.0.0",
        "2.0.0-rc1",
        "02.0.0",
        "2.00.0",
        "2.0.0\n",
        "\u0662.\u0660.\u0660",
        " 2.0.0",
    ]:
        result = cli(*new_args(bad, src, store, "--no-dvc"))
        assert result.exit_code == 2, bad
        assert "MAJOR.MINOR.PATCH" in result.stderr, bad
        assert snapshot(store) == before, bad


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0"])
def test_shipped_version_numbers_are_refused(cli: RunCli, tmp_path: Path, version: str) -> None:
    """Even in a store that has neither the version nor its output in a gold.dvc."""
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path)
    result = cli(*new_args(version, src, store, "--no-dvc"))
    assert result.exit_code == 2
    assert f"gold {version} is a version benchie-cli ships" in result.stderr
    assert snapshot(store) == {}


def test_existing_and_not_pulled_versions_are_never_replaced(cli: RunCli, tmp_path: Path) -> None:
    store, src = copy_store(tmp_path), make_source(tmp_path)
    assert cli(*new_args("2.0.0", src, store, "--no-dvc")).exit_code == 0
    track(store, "3.0.0", "private")
    (store / "4.0.0").symlink_to("nowhere")  # a dangling link is there too
    other = make_source(tmp_path, de=True, name="other")
    before = snapshot(store)
    for version, state in [
        ("2.0.0", "exists"),
        ("1.1.0", "exists"),
        ("3.0.0", "is tracked by DVC (not pulled here)"),
        ("4.0.0", "exists"),
    ]:
        result = cli(*new_args(version, other, store, "--no-dvc"))
        assert result.exit_code == 2, version
        assert f"gold {version} {state} in {store}" in result.stderr
        assert "never replaced" in result.stderr
        assert snapshot(store) == before


def test_remote_refusals_without_dvc_repository(cli: RunCli, tmp_path: Path) -> None:
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path)
    cases = [
        (["--no-dvc", "--remote", "private"], "--remote names the DVC remote of the version"),
        (["--remote", "bad name"], "--remote 'bad name' is not a DVC remote name"),
        (["--remote", "-x"], "is not a DVC remote name"),
    ]
    if lifecycle.dvc_repo_of(store) is None:  # tmp_path lies in no DVC repository
        missing = "the store is in no DVC repository"  # whether DVC is installed or not
        cases.append((["--remote", "private"], missing))
    for extra, message in cases:
        result = cli(*new_args("2.0.0", src, store, *extra))
        assert result.exit_code == 2, extra
        assert message in result.stderr, (extra, result.stderr)
        assert snapshot(store) == {}, extra


# --------------------------------------------------------------------------- failures midway


@pytest.mark.parametrize(
    "exc",
    [BenchieError("boom"), RuntimeError("boom"), KeyboardInterrupt(), SystemExit(143)],
    ids=["BenchieError", "RuntimeError", "KeyboardInterrupt", "SystemExit"],
)
def test_failure_midway_leaves_no_trace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exc: BaseException
) -> None:
    """A failure after the files are copied into the temporary directory (the manifest
    step): no version and no ``.new-*`` directory remain."""
    store, src = copy_store(tmp_path, versions=("1.1.0",)), make_source(tmp_path)
    before = snapshot(store)
    seen: list[Path] = []

    def fail(version_dir: Path, **_: object) -> None:
        seen.append(version_dir)
        assert (version_dir / EN_REL).read_bytes() == EN_TINY  # copied before the failure
        raise exc

    monkeypatch.setattr(lifecycle, "build_manifest", fail)
    with pytest.raises(type(exc)):
        lifecycle.new_version(store, "2.0.0", src, description="d", license="l", use_dvc=False)
    assert len(seen) == 1 and seen[0].parent == store and seen[0].name.startswith(".new-2.0.0-")
    assert snapshot(store) == before


SLOW_VALIDATE = """
import sys, time
import benchie_cli.gold.lifecycle as lifecycle

def slow(*args, **kwargs):
    print("copied", flush=True)
    time.sleep(60)

lifecycle._validate = slow
from benchie_cli.entry import main
main()
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_stop_signal_during_gold_new_leaves_no_trace(
    tmp_path: Path, signum: signal.Signals
) -> None:
    """The signal arrives when the files are in the temporary directory (the process
    says so, then waits): exit 128 + signal, nothing left in the store."""
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path)
    args = new_args("2.0.0", src, store, "--no-dvc")
    with subprocess.Popen(
        [sys.executable, "-c", SLOW_VALIDATE, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline() == "copied\n"
            assert len(leftovers(store)) == 1
            proc.send_signal(signum)
            _, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 128 + signum, err
    assert "Traceback" not in err
    assert snapshot(store) == {}


def fake_dvc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, add: str) -> None:
    """Make tmp_path a "DVC repository" whose ``dvc`` is a script (the real one is not
    needed): ``config`` knows the remote ``private`` (autostage unset), ``add`` runs the
    shell code ``add`` (``$2``: the version directory), anything else fails."""
    (tmp_path / ".dvc").mkdir(exist_ok=True)
    fake = tmp_path / "fake-dvc"
    fake.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = config ]; then echo remote.private.url=/somewhere; exit 0; fi\n'
        f'if [ "$1" = add ]; then {add}; fi\n'
        'echo "ERROR: boom ($*)" >&2; exit 1\n',
        "utf-8",
    )
    fake.chmod(0o755)
    monkeypatch.setattr(lifecycle, "dvc_command", lambda: str(fake))


def test_dvc_failure_after_writing_says_the_version_was_written(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`dvc add` failing: the version is in place, and the error says so instead of
    suggesting nothing was written."""
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path)
    fake_dvc(tmp_path, monkeypatch, add="true")  # falls through to the failure
    unknown = cli(*new_args("2.0.0", src, store, "--remote", "public"))
    assert unknown.exit_code == 2
    assert "--remote 'public': DVC has no such remote (known: private)" in unknown.stderr
    assert snapshot(store) == {}

    result = cli(*new_args("2.0.0", src, store, "--remote", "private"))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"benchie: gold 2.0.0 was written to {store / '2.0.0'} but is not tracked by DVC "
        f"in {tmp_path.resolve() / 'gold.dvc'}: remove it to start again",
        "benchie: error: `dvc add store/2.0.0` failed: ERROR: boom (add store/2.0.0)",
    ]
    assert (store / "2.0.0" / EN_REL).read_bytes() == EN_TINY
    assert manifest_of(store, "2.0.0")["version"] == "2.0.0"
    assert not (tmp_path / "gold.dvc").exists()


#: What `dvc add DIR` writes into DIR.dvc (printf's arguments: a hash, the directory's name).
SINGLE = "outs:\\n- md5: %s.dir\\n  size: 1\\n  nfiles: 3\\n  hash: md5\\n  path: %s\\n"


def test_gold_dvc_gets_one_output_added_then_updated_and_keeps_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The version's output goes into the repository's gold.dvc, path relative to it, with
    its remote; release updates it in place, keeping the remote; every other line of
    gold.dvc stays as it was, and no file of the version's own is left."""
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path)
    # `dvc add` fails if the version's own file is in gold.dvc already: DVC would update
    # gold.dvc in place, not write that file.
    add = (
        'grep -q "path: $2$" gold.dvc && exit 1; '
        f'printf "{SINGLE}" "$(date +%N)" "${{2##*/}}" > "$2.dvc"; exit 0'
    )
    fake_dvc(tmp_path, monkeypatch, add=add)
    dvc_file = tmp_path.resolve() / "gold.dvc"
    others = (
        "outs:\n"
        "- md5: 77451ca33c05bc0a1aec34820e5cfd4d.dir  # a comment is kept\n"
        "  size: 1441424\n  nfiles: 6\n  hash: md5\n  path: store/1.1.0\n"
        "- md5: 0123.dir\n  size: 1\n  nfiles: 1\n  hash: md5\n  path: store/1.5.0\n"
        "  remote: private\n  push: false\n"
    )
    dvc_file.write_text(others, "utf-8")
    added = lifecycle.new_version(
        store, "2.0.0", src, description="d", license="l", draft=True, remote="private"
    )
    assert added.dvc_file == dvc_file and added.remote == "private"
    written = dvc_file.read_text("utf-8")
    assert written.startswith(others)
    new = written[len(others) :].splitlines()
    assert new[0].startswith("- md5: ") and new[0].endswith(".dir")
    assert new[1:] == [
        "  size: 1",
        "  nfiles: 3",
        "  hash: md5",
        "  path: store/2.0.0",
        "  remote: private",
    ]
    assert not (store / "2.0.0.dvc").exists()
    assert lifecycle.tracked_versions(store) == ["1.1.0", "1.5.0", "2.0.0"]

    lifecycle.new_version(store, "2.1.0", src, description="d", license="l", draft=True)
    released = lifecycle.release_version(store, "2.0.0")
    assert released.remote == "private"
    after = dvc_file.read_text("utf-8")
    assert after.startswith(others)
    rest = after[len(others) :].splitlines()
    assert rest[0] != new[0] and rest[1:6] == new[1:]  # updated in place: a new hash
    assert rest[6].startswith("- md5: ") and rest[10:] == ["  path: store/2.1.0"]
    assert sorted(p.name for p in store.iterdir()) == ["2.0.0", "2.1.0"]


def test_failed_release_puts_gold_dvc_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`dvc add` failing on release: gold.dvc is as it was (the version's output taken
    out for `dvc add` is put back) and the error says how to update it."""
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path)
    ok = f'printf "{SINGLE}" 0123 "${{2##*/}}" > "$2.dvc"; exit 0'
    fake_dvc(tmp_path, monkeypatch, add=ok)
    lifecycle.new_version(store, "2.0.0", src, description="d", license="l", draft=True)
    dvc_file = tmp_path / "gold.dvc"
    before = dvc_file.read_bytes()
    fake_dvc(tmp_path, monkeypatch, add="true")  # fails
    with pytest.raises(BenchieError, match=re.escape("`dvc add store/2.0.0` failed")):
        lifecycle.release_version(store, "2.0.0")
    assert dvc_file.read_bytes() == before
    assert not (store / "2.0.0.dvc").exists()


# --------------------------------------------------------------------------- drafts


def test_draft_manifest_score_release_and_force(cli: RunCli, tmp_path: Path) -> None:
    store, src = copy_store(tmp_path, versions=("1.1.0",)), make_source(tmp_path)
    result = cli(*new_args("2.0.0", src, store, "--no-dvc", "--draft"))
    assert result.exit_code == 0, result.stderr
    manifest_path = store / "2.0.0" / "manifest.json"
    manifest = manifest_of(store, "2.0.0")
    assert manifest["status"] == "draft"
    assert list(manifest) == [  # status right after the licence, as Manifest.as_json has it
        "schema",
        "version",
        "description",
        "license",
        "status",
        "derived_facets",
        "files",
    ]
    assert "benchie: gold 2.0.0 (draft)" in result.stderr
    assert "When it is final: benchie gold release 2.0.0" in result.stdout
    assert "CHANGELOG" not in result.stdout  # a draft is not released: no entry yet

    verify = cli("gold", "verify", "--gold-dir", store)
    assert "2.0.0: draft (may still change), 1 file(s)" in verify.stdout.splitlines()

    sub = tmp_path / "sys.tsv"
    sub.write_text(SUBMISSION, "utf-8")
    score = ("score", "--gold-dir", store, "--gold-version", "2.0.0", str(sub))
    scored = cli(*score)
    assert scored.exit_code == 0, scored.stderr
    assert scored.stderr.count(DRAFT_WARNING) == 1
    assert "`benchie gold release 2.0.0` freezes it" in scored.stderr

    # An edit (sentence 2 removed): the manifest no longer vouches for the file...
    one_sentence = first_sentences(EN_GOLD, 1)
    (store / "2.0.0" / EN_REL).write_bytes(one_sentence)
    stale = cli(*score)
    assert stale.exit_code == 1
    assert "differs from its manifest" in stale.stderr
    # ... until `gold manifest` refreshes it: hashes and counts, still a draft.
    refreshed = cli("gold", "manifest", store / "2.0.0")
    assert refreshed.exit_code == 0, refreshed.stderr
    assert refreshed.stderr.startswith(f"benchie: wrote {manifest_path} (1 file(s), draft)")
    manifest = manifest_of(store, "2.0.0")
    assert manifest["status"] == "draft" and manifest["description"] == "tiny test gold"
    (entry,) = manifest["files"]
    assert (entry["sha256"], entry["sentences"], entry["synsets"]) == (
        sha256(one_sentence),
        1,
        5,
    )
    assert cli(*score).exit_code == 0

    released = cli("gold", "release", "2.0.0", "--no-dvc", "--gold-dir", store)
    assert released.exit_code == 0, released.stderr
    data = manifest_path.read_bytes()
    assert "status" not in orjson.loads(data)
    assert "benchie: gold 2.0.0 (released)" in released.stderr
    assert "1 sentence, 5 fact synsets" in released.stdout
    assert f"- Manifest sha256 `{sha256(data)}`." in released.stdout
    after = cli(*score)
    assert after.exit_code == 0 and "is a draft" not in after.stderr
    assert "2.0.0: released, 1 file(s)" in cli("gold", "verify", "--gold-dir", store).stdout

    # Released: `gold manifest` and `gold release` refuse, bytes unchanged.
    (store / "2.0.0" / EN_REL).write_bytes(EN_TINY)
    refused = cli("gold", "manifest", store / "2.0.0", "--description", "changed")
    assert refused.exit_code == 2
    assert "gold 2.0.0 is released: its manifest never changes" in refused.stderr
    assert manifest_path.read_bytes() == data
    again = cli("gold", "release", "2.0.0", "--no-dvc", "--gold-dir", store)
    assert again.exit_code == 2 and "gold 2.0.0 is already released" in again.stderr
    assert manifest_path.read_bytes() == data

    forced = cli("gold", "manifest", store / "2.0.0", "--force")
    assert forced.exit_code == 0, forced.stderr
    assert forced.stderr.startswith(f"benchie: wrote {manifest_path} (1 file(s), released)")
    manifest = manifest_of(store, "2.0.0")
    assert "status" not in manifest
    (entry,) = manifest["files"]
    assert (entry["sha256"], entry["sentences"], entry["synsets"]) == (sha256(EN_TINY), 2, 12)


def test_release_refuses_invalid_draft_and_unknown_versions(cli: RunCli, tmp_path: Path) -> None:
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path)
    assert cli(*new_args("2.0.0", src, store, "--no-dvc", "--draft")).exit_code == 0
    gold = store / "2.0.0" / EN_REL
    gold.write_bytes(EN_TINY.replace(b"[the] [first]", b"[the [first]", 1))
    before = snapshot(store)
    result = cli("gold", "release", "2.0.0", "--no-dvc", "--gold-dir", store)
    assert result.exit_code == 1
    assert f"{gold}:3: error: " in result.stderr and "[lone-bracket]" in result.stderr
    assert snapshot(store) == before  # still a draft
    for version in ["9.9.9", "../2.0.0", "2.0"]:
        unknown = cli("gold", "release", version, "--no-dvc", "--gold-dir", store)
        assert unknown.exit_code == 2 and "no gold version" in unknown.stderr
    assert snapshot(store) == before


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (".tiny_en.txt.orig", "hidden file en/default/.tiny_en.txt.orig: remove it"),
        ("tiny_en_v2.txt", "en/default/ holds tiny_en.txt and tiny_en_v2.txt"),
    ],
)
def test_release_refuses_a_draft_that_gained_a_stray_file(
    cli: RunCli, tmp_path: Path, name: str, message: str
) -> None:
    """`gold manifest` lists an editor's backup beside the gold (and, sorting first, it
    becomes the gold scored); `gold release` checks the layout as `gold new` does."""
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path)
    assert cli(*new_args("2.0.0", src, store, "--no-dvc", "--draft")).exit_code == 0
    (store / "2.0.0" / "en" / "default" / name).write_bytes(first_sentences(EN_GOLD, 1))
    before = snapshot(store)
    result = cli("gold", "release", "2.0.0", "--no-dvc", "--gold-dir", store)
    assert result.exit_code == 2
    assert f"{store / '2.0.0'}: error: {message}" in result.stderr
    assert snapshot(store) == before
    assert manifest_of(store, "2.0.0")["status"] == "draft"


def test_draft_warning_once_even_when_other_languages_are_loaded(
    cli: RunCli, tmp_path: Path
) -> None:
    store, src = copy_store(tmp_path, versions=()), make_source(tmp_path, de=True)
    assert cli(*new_args("2.0.0", src, store, "--no-dvc", "--draft")).exit_code == 0
    german = tmp_path / "german.tsv"  # German extractions scored as English
    german.write_text(
        "1\tEr\tdiente als\terster Premierminister\n1\tEr\twurde\tGründungsrichter\n"
        "1\tEr\tdiente als erster Premierminister von\tAustralien\n",
        "utf-8",
    )
    result = cli("score", "--gold-dir", store, "--gold-version", "2.0.0", "--lang", "en", german)
    assert result.exit_code == 2  # nothing of it can be scored: an error, not a silent 0.0
    assert "[wrong-language]" in result.stderr  # the check that loads the German gold ran
    assert result.stderr.count(DRAFT_WARNING) == 1


# --------------------------------------------------------------------------- list, verify


def test_list_shows_versions_not_pulled_and_refuses_an_empty_store(
    cli: RunCli, tmp_path: Path, alone: None
) -> None:
    store = copy_store(tmp_path, versions=("1.1.0",))
    track(store, "3.0.0", "private")
    table = cli("gold", "list", "--gold-dir", store)
    assert table.exit_code == 0
    rows = table.stdout.splitlines()[2:]
    assert [r.split()[:3] for r in rows] == [
        ["1.1.0", "(default)", "en"],
        ["1.1.0", "(default)", "de"],
        ["1.1.0", "(default)", "zh"],
        ["3.0.0", "(not", "pulled)"],
    ]
    assert rows[-1].endswith(f"`dvc pull {store / '3.0.0'}` (remote private)")
    doc = orjson.loads(cli("gold", "list", "--gold-dir", store, "--format", "json").stdout)
    assert doc[-1] == {
        "version": "3.0.0",
        "default": False,
        "pulled": False,
        "dvc_remote": "private",
    }
    verify = cli("gold", "verify", "--gold-dir", store)
    assert verify.stdout.splitlines()[-2:] == [
        "3.0.0: tracked by DVC, not pulled (not verified)",
        "ok: 4 file(s) in 1 version(s) match their manifests",
    ]

    empty = tmp_path / "empty"
    empty.mkdir()
    result = cli("gold", "list", "--gold-dir", empty)
    assert result.exit_code == 2 and "no gold in the gold stores" in result.stderr
    only_dvc = tmp_path / "only-dvc"
    only_dvc.mkdir()
    track(only_dvc, "3.0.0", "private")
    result = cli("gold", "list", "--gold-dir", only_dvc)
    assert result.exit_code == 2
    assert "no gold version is pulled" in result.stderr and "DVC tracks 3.0.0" in result.stderr


def test_verify_flags_a_shipped_version_whose_manifest_was_edited(
    cli: RunCli, tmp_path: Path
) -> None:
    """The files still match the manifest, but the manifest is not the one shipped (its
    description edited by hand): verify fails naming it."""
    store = copy_store(tmp_path, versions=("1.1.0",))
    assert cli("gold", "verify", "--gold-dir", store).exit_code == 0
    path = store / "1.1.0" / "manifest.json"
    doc = orjson.loads(path.read_bytes())
    doc["description"] = "mine"
    path.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")
    result = cli("gold", "verify", "--gold-dir", store)
    assert result.exit_code == 1
    assert f"{path}: error: manifest sha256 {sha256(path.read_bytes())} " in result.stderr
    assert "is not that of the gold 1.1.0" in result.stderr
    assert "1.1.0: released, shipped with benchie-cli, 4 file(s)" in result.stdout


# --------------------------------------------------------------------------- with DVC


def dvc_env(base: Path) -> dict[str, str]:
    """Git and DVC settings of the scratch repositories: an identity, and none of the
    user's global or system config (remotes of their own would show up as known)."""
    env = {
        f"{key}_{part}": value
        for key in ("GIT_AUTHOR", "GIT_COMMITTER")
        for part, value in (("NAME", "Test"), ("EMAIL", "test@example.org"))
    }
    env |= {
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "DVC_NO_ANALYTICS": "1",
        "XDG_CONFIG_HOME": str(base / "xdg"),
        "DVC_GLOBAL_CONFIG_DIR": str(base / "xdg" / "dvc"),
        "DVC_SYSTEM_CONFIG_DIR": str(base / "xdg" / "dvc-system"),
        "DVC_SITE_CACHE_DIR": str(base / "dvc-site-cache"),
    }
    return env


@pytest.fixture(scope="module")
def dvc_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Made once (``dvc init`` takes a second), copied by each test: ``repo/``, a git + DVC
    repository with an empty store ``gold/`` and three directory remotes, ``public`` (the
    default), ``private`` and ``archive`` (never created), named relative to it;
    ``private-gold/``, a git + DVC repository that is itself a store."""
    if lifecycle.dvc_command() is None:
        pytest.skip("dvc not found beside this Python nor on $PATH (pip install -e '.[dvc]')")
    if shutil.which("git") is None:
        pytest.skip("git not found")
    base = tmp_path_factory.mktemp("dvc-template")
    with pytest.MonkeyPatch.context() as mp:
        for key, value in dvc_env(base).items():
            mp.setenv(key, value)
        for name in ("repo", "private-gold"):
            (base / name).mkdir()
            subprocess.run(["git", "init", "-q"], cwd=base / name, check=True)
            run_dvc(base / name, "init", "-q")
        run_dvc(base / "repo", "remote", "add", "-d", "public", "../public")
        run_dvc(base / "repo", "remote", "add", "private", "../private")
    # A remote with a URL longer than a line: `dvc remote list` wraps it onto lines of its
    # own, which must not pass for remote names.
    with (base / "repo" / ".dvc" / "config").open("a", encoding="utf-8") as config:
        config.write(f"['remote \"archive\"']\n    url = ../{'long-' * 30}archive\n")
    for name in ("public", "private", "repo/gold"):
        (base / name).mkdir()
    return base


@pytest.fixture
def dvc_repo(dvc_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh copy of the template; returns its ``repo/``."""
    base = tmp_path / "dvc"
    shutil.copytree(dvc_template, base, symlinks=True)
    for key, value in dvc_env(base).items():
        monkeypatch.setenv(key, value)
    yield base / "repo"


def run_dvc(repo: Path, *args: str) -> str:
    dvc = lifecycle.dvc_command()
    assert dvc is not None
    proc = subprocess.run([dvc, *args], cwd=repo, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def dvc_out(dvc_file: Path, path: str) -> dict[str, str]:
    """The output ``path`` of gold.dvc, as its ``key: value`` lines, read as text (DVC's
    own form: ``outs:``, then one ``- key: value`` item an output)."""
    text = dvc_file.read_text("utf-8")
    assert text.startswith("outs:\n- ")
    for item in text.removeprefix("outs:\n- ").split("\n- "):
        lines = item.splitlines()
        assert all(ln.startswith("  ") for ln in lines[1:])
        pairs = dict(ln.strip().split(": ", 1) for ln in lines)
        if pairs["path"] == path:
            return pairs
    raise AssertionError(f"no output {path} in {dvc_file}")


def stored_objects(remote: Path) -> list[bytes]:
    return [p.read_bytes() for p in remote.rglob("*") if p.is_file()]


def test_dvc_private_remote_push_pull_and_release(
    cli: RunCli, tmp_path: Path, dvc_repo: Path
) -> None:
    store, src = dvc_repo / "gold", make_source(tmp_path)
    result = cli(*new_args("3.0.0", src, store, "--draft", "--remote", "private"))
    assert result.exit_code == 0, result.stderr
    dvc_file = dvc_repo.resolve() / "gold.dvc"
    out = dvc_out(dvc_file, "gold/3.0.0")
    assert out["remote"] == "private"
    assert out["md5"].endswith(".dir") and out["nfiles"] == "3"
    assert not (store / "3.0.0.dvc").exists()
    assert f"tracked by DVC in {dvc_file}" in result.stderr
    assert f"dvc push {store / '3.0.0'}\n" in result.stdout
    # The remote's name and URL are in .dvc/config, which the commit must carry too.
    staged = f"git add {dvc_file} {store / '.gitignore'} {dvc_repo / '.dvc' / 'config'} && "
    assert f"  {staged}git commit -m 'gold 3.0.0'\n" in result.stdout
    assert (store / ".gitignore").read_text("utf-8").splitlines() == ["/3.0.0"]

    run_dvc(dvc_repo, "push", "-q")
    remotes = dvc_repo.parent
    private, public = stored_objects(remotes / "private"), stored_objects(remotes / "public")
    assert EN_TINY in private and ATTRIBUTION in private
    assert public == []  # the default remote never got this version

    version_dir = store / "3.0.0"
    before = snapshot(version_dir)
    shutil.rmtree(version_dir)
    run_dvc(dvc_repo, "pull", "-q", "gold/3.0.0")  # the version's output of gold.dvc
    assert snapshot(version_dir) == before

    released = cli("gold", "release", "3.0.0", "--gold-dir", store)
    assert released.exit_code == 0, released.stderr
    after = dvc_out(dvc_file, "gold/3.0.0")
    assert after["remote"] == "private"
    assert after["md5"] != out["md5"]  # the manifest changed (no status key any more)
    assert "status" not in manifest_of(store, "3.0.0")
    assert run_dvc(dvc_repo, "status", "-q", "gold/3.0.0") == ""
    assert not (store / "3.0.0.dvc").exists()
    run_dvc(dvc_repo, "push", "-q", "gold/3.0.0")
    assert stored_objects(remotes / "public") == []


def test_dvc_outputs_of_other_versions_stay_as_they_were(
    cli: RunCli, tmp_path: Path, dvc_repo: Path, alone: None
) -> None:
    """gold.dvc holds versions not pulled here, one of them on a remote of its own: adding
    a version, adding another on a private remote and releasing a draft leave each of
    their lines as they were, and a version's output keeps its place when it is updated."""
    store, src = dvc_repo / "gold", make_source(tmp_path)
    dvc_file = dvc_repo / "gold.dvc"
    theirs = dvcfile.DvcFile(
        ("outs:",),
        (repo_output("gold/1.1.0"), repo_output("gold/carb/1.0.0").with_key("remote", "archive")),
        (),
    ).render()
    dvc_file.write_bytes(theirs)
    assert lifecycle.tracked_versions(store) == ["1.1.0"]  # not pulled: no gold/1.1.0 here
    draft = cli(*new_args("3.0.0", src, store, "--draft", "--remote", "private"))
    assert draft.exit_code == 0, draft.stderr
    plain = cli(*new_args("3.1.0", src, store))
    assert plain.exit_code == 0, plain.stderr
    added = dvc_file.read_bytes()
    assert added.startswith(theirs)
    assert [o.path for o in dvcfile.load(dvc_file).outs] == [
        "gold/1.1.0",
        "gold/carb/1.0.0",
        "gold/3.0.0",
        "gold/3.1.0",
    ]
    released = cli("gold", "release", "3.0.0", "--gold-dir", store)
    assert released.exit_code == 0, released.stderr
    after = dvcfile.load(dvc_file)
    assert after.render().startswith(theirs)
    assert [(o.path, o.remote) for o in after.outs[2:]] == [
        ("gold/3.0.0", "private"),
        ("gold/3.1.0", None),
    ]
    assert after.outs[3] == dvcfile.load(dvc_file).outs[3]
    assert added.split(b"- md5: ")[-1] == after.render().split(b"- md5: ")[-1]  # 3.1.0
    assert sorted(p.name for p in store.iterdir()) == [".gitignore", "3.0.0", "3.1.0"]
    listed = cli("gold", "list", "--gold-dir", store).stdout
    assert f"`dvc pull {store / '1.1.0'}`" in listed


def test_dvc_default_remote_unknown_remote_and_autostage(
    cli: RunCli, tmp_path: Path, dvc_repo: Path
) -> None:
    store, src = dvc_repo / "gold", make_source(tmp_path)
    unknown = cli(*new_args("3.0.0", src, store, "--remote", "privat"))
    assert unknown.exit_code == 2
    assert "--remote 'privat': DVC has no such remote (known: archive, private, public)" in (
        unknown.stderr
    )
    assert snapshot(store) == {}

    plain = cli(*new_args("3.0.0", src, store))
    assert plain.exit_code == 0, plain.stderr
    dvc_file = dvc_repo / "gold.dvc"
    assert "remote" not in dvc_out(dvc_file, "gold/3.0.0")
    run_dvc(dvc_repo, "push", "-q", "gold/3.0.0")
    assert EN_TINY in stored_objects(dvc_repo.parent / "public")
    assert stored_objects(dvc_repo.parent / "private") == []

    # With core.autostage, `dvc add` stages the version's own .dvc file, which is then
    # removed: the index must hold gold.dvc as written (with the remote) and not that file.
    config = dvc_repo / ".dvc" / "config"  # as `dvc config core.autostage true` does
    config.write_text(
        config.read_text("utf-8").replace("[core]\n", "[core]\n    autostage = true\n", 1)
    )
    staged = cli(*new_args("3.1.0", src, store, "--remote", "private"))
    assert staged.exit_code == 0, staged.stderr
    index = subprocess.run(
        ["git", "show", ":gold.dvc"], cwd=dvc_repo, capture_output=True, check=True
    ).stdout
    assert index == dvc_file.read_bytes()
    assert index.endswith(b"  path: gold/3.1.0\n  remote: private\n")
    listed = subprocess.run(
        ["git", "ls-files", "--", "gold"], cwd=dvc_repo, capture_output=True, check=True
    ).stdout
    assert listed == b"gold/.gitignore\n"


def test_dvc_store_at_the_repository_root(cli: RunCli, tmp_path: Path, dvc_repo: Path) -> None:
    """A repository of private gold only, whose root is the store: its gold.dvc is there."""
    store, src = dvc_repo.parent / "private-gold", make_source(tmp_path)
    assert lifecycle.dvc_repo_of(store) == store.resolve()
    result = cli(*new_args("3.0.0", src, store))
    assert result.exit_code == 0, result.stderr
    assert dvc_out(store / "gold.dvc", "3.0.0")["nfiles"] == "3"
    assert "/3.0.0" in (store / ".gitignore").read_text("utf-8").splitlines()
    assert lifecycle.tracked_versions(store) == ["3.0.0"]


def test_dvc_pull_of_one_version_pulls_it_alone(dvc_repo: Path, tmp_path: Path) -> None:
    """The repository's gold.dvc in a new DVC repository whose remote is the embedded one:
    `dvc pull gold/1.1.0` pulls 1.1.0 and nothing else, byte for byte; the command that
    `gold list` names for a version not pulled pulls that one."""
    clone = tmp_path / "clone"
    clone.mkdir()
    run_dvc(clone, "init", "-q", "--no-scm")
    run_dvc(clone, "remote", "add", "-d", "embedded", str(REPO / "dvc-store"))
    shutil.copy(REPO / "gold.dvc", clone / "gold.dvc")
    run_dvc(clone, "pull", "-q", "gold/1.1.0")
    assert [p.name for p in (clone / "gold").iterdir()] == ["1.1.0"]
    assert snapshot(clone / "gold" / "1.1.0") == snapshot(GOLD_DIR / "1.1.0")
    assert lifecycle.tracked_versions(clone / "gold") == ["1.0.0", "1.1.0"]
    assert lifecycle.tracked_versions(clone / "gold" / "carb") == ["1.0.0"]
    assert lifecycle.dvc_remote_of(clone / "gold", "1.0.0") is None  # the default remote
    run_dvc(clone / "gold", "pull", "-q", str(clone / "gold" / "carb" / "1.0.0"))
    assert sorted(p.name for p in (clone / "gold").iterdir()) == ["1.1.0", "carb"]
    assert snapshot(clone / "gold" / "carb" / "1.0.0") == snapshot(GOLD_DIR / "carb" / "1.0.0")


def test_release_needs_a_description_and_a_licence(cli: RunCli, tmp_path: Path) -> None:
    """A draft laid out by hand has neither; releasing it would freeze an empty manifest."""
    store = copy_store(tmp_path, versions=())
    shutil.copytree(make_source(tmp_path), store / "2.3.0")
    (store / "2.3.0" / "ATTRIBUTION.md").unlink()
    assert cli("gold", "manifest", store / "2.3.0").exit_code == 0  # a draft
    before = snapshot(store)
    refused = cli("gold", "release", "2.3.0", "--no-dvc", "--gold-dir", store)
    assert refused.exit_code == 2
    assert "has no description and no license" in refused.stderr
    assert "give --description and --license" in refused.stderr
    assert snapshot(store) == before
    half = cli("gold", "release", "2.3.0", "--no-dvc", "--gold-dir", store, "--license", "MIT")
    assert half.exit_code == 2 and "has no description:" in half.stderr
    done = cli(
        "gold", "release", "2.3.0", "--no-dvc", "--gold-dir", store,
        "--description", "hand-made", "--license", "MIT",
    )  # fmt: skip
    assert done.exit_code == 0, done.stderr
    manifest = manifest_of(store, "2.3.0")
    assert (manifest["description"], manifest["license"]) == ("hand-made", "MIT")
    assert "status" not in manifest


def test_new_in_a_dvc_repository_without_dvc_is_refused(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Untracked gold in a DVC repository is one `git add .` away from git: refused, unless
    --no-dvc says the organiser keeps it out of git."""
    repo = tmp_path / "repo"
    (repo / ".dvc").mkdir(parents=True)
    store = repo / "gold"
    store.mkdir()
    monkeypatch.setattr(lifecycle, "dvc_command", lambda: None)
    refused = cli(*new_args("2.0.0", make_source(tmp_path), store))
    assert refused.exit_code == 2
    assert "DVC is not installed" in refused.stderr and "--no-dvc" in refused.stderr
    assert list(store.iterdir()) == []
    allowed = cli(*new_args("2.0.0", make_source(tmp_path, name="src2"), store, "--no-dvc"))
    assert allowed.exit_code == 0, allowed.stderr
    assert "not tracked by DVC (--no-dvc)" in allowed.stderr


def test_many_warnings_are_summarised(cli: RunCli, tmp_path: Path) -> None:
    """The public English gold as a new version: its warnings (absent tokens, bracket
    spacing, duplicate forms) do not stop it; ten are shown, then the count."""
    src = tmp_path / "src" / "en" / "default"
    src.mkdir(parents=True)
    shutil.copy(GOLD_DIR / "1.1.0" / "en" / "default" / "benchie_gold_annotations_en.txt", src)
    store = copy_store(tmp_path, versions=())
    result = cli(*new_args("2.0.0", tmp_path / "src", store, "--no-dvc"))
    assert result.exit_code == 0, result.stderr
    shown = [ln for ln in result.stderr.splitlines() if ": warning: " in ln]
    assert len(shown) == 10
    total = cli(
        "validate", "--kind", "gold", "--lang", "en", src / "benchie_gold_annotations_en.txt"
    )
    count = sum(": warning: " in ln for ln in total.stdout.splitlines())
    assert count > 10
    assert f"benchie: {count:,} warning(s) in all" in result.stderr


def test_a_version_directory_is_no_store(cli: RunCli, tmp_path: Path) -> None:
    """`--gold-dir gold/1.1.0` would write into a released version (and make DVC re-add
    it): refused before anything is written, as is a directory inside a version."""
    store = copy_store(tmp_path, versions=("1.1.0",))
    before = snapshot(store)
    for inside in (store / "1.1.0", store / "1.1.0" / "en"):
        result = cli(*new_args("2.0.0", make_source(tmp_path, name=inside.name), inside))
        assert result.exit_code == 2
        assert "is not a gold store" in result.stderr and "is a gold version" in result.stderr
    assert snapshot(store) == before


def test_broken_files_list_of_an_old_manifest_is_no_traceback(cli: RunCli, tmp_path: Path) -> None:
    store = copy_store(tmp_path, versions=())
    shutil.copytree(make_source(tmp_path), store / "2.0.0")
    for files in ("5", "[1]", '{"a": 1}', '[{"path": []}]'):
        (store / "2.0.0" / "manifest.json").write_text(
            f'{{"schema": 1, "version": "2.0.0", "status": "draft", "files": {files}}}'
        )
        result = cli("gold", "manifest", store / "2.0.0")
        assert result.exit_code == 0, (files, result.stderr)
        assert [f["path"] for f in manifest_of(store, "2.0.0")["files"]] == [EN_REL]


def test_descriptions_are_one_line(cli: RunCli, tmp_path: Path) -> None:
    """A newline would forge a heading in the CHANGELOG entry of a manifest never changed."""
    store = copy_store(tmp_path, versions=())
    args = new_args("2.0.0", make_source(tmp_path), store, "--no-dvc")
    args[args.index("--description") + 1] = "ok\n## [gold-9.9.9] - 2026-01-01"
    result = cli(*args)
    assert result.exit_code == 2 and "--description: one line of text" in result.stderr
    assert snapshot(store) == {}


def test_top_level_links_are_not_followed(cli: RunCli, tmp_path: Path) -> None:
    src = make_source(tmp_path)
    (src / "README").symlink_to("/etc/hostname")
    store = copy_store(tmp_path, versions=())
    result = cli(*new_args("2.0.0", src, store, "--no-dvc"))
    assert result.exit_code == 2 and "README is a symbolic link" in result.stderr
    assert snapshot(store) == {}


def test_too_deep_a_tree_is_an_error(cli: RunCli, tmp_path: Path) -> None:
    src = make_source(tmp_path)
    levels = [src / "en"]
    for _ in range(1100):  # deeper than the interpreter's recursion limit
        levels.append(levels[-1] / "a")
        levels[-1].mkdir()  # one level at a time: os.makedirs recurses too
    try:
        result = cli(*new_args("2.0.0", src, copy_store(tmp_path, versions=()), "--no-dvc"))
        assert result.exit_code == 2
        # Python 3.11 walks the tree recursively (RecursionError, caught), 3.12 does not
        # (the first level that is no language or facet directory is then named).
        expected = (
            "a directory tree too deep to walk"
            if sys.version_info < (3, 12)
            else ("unexpected directory en/a")
        )
        assert expected in result.stderr and len(result.stderr.splitlines()) == 1
    finally:  # pytest's clean-up of tmp_path recurses too: remove it one level at a time
        for level in reversed(levels[1:]):
            level.rmdir()


def test_leftover_of_a_killed_run_is_reported_and_a_fifo_manifest_does_not_hang(
    tmp_path: Path,
) -> None:
    store = copy_store(tmp_path, versions=("1.1.0",))
    (store / ".new-2.0.0-abcd" / "en").mkdir(parents=True)
    run = [sys.executable, "-m", "benchie_cli", "gold", "verify", "--gold-dir", str(store)]
    verify = subprocess.run(run, capture_output=True, text=True, timeout=60, check=False)
    assert verify.returncode == 1
    assert ".new-2.0.0-abcd: error: left by an interrupted `gold new`" in verify.stderr
    shutil.rmtree(store / ".new-2.0.0-abcd")
    (store / "3.0.0").mkdir()
    os.mkfifo(store / "3.0.0" / "manifest.json")
    listed = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "gold", "list", "--gold-dir", str(store)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert listed.returncode == 2 and "Traceback" not in listed.stderr
    assert "3.0.0/manifest.json" in listed.stderr
