"""``gold.dvc``: the repository's one DVC file, an output per gold version of every
benchmark, and how benchie reads it without DVC (bounded, never blocking) to know which
versions exist, where they are kept, and how to pull one. Writing it (``gold new``,
``gold release``) is tested with real DVC in test_gold_lifecycle.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import benchie_cli.gold.store as gold_store
from benchie_cli.gold import dirs, dvcfile
from tests.conftest import GOLD_DIR, REPO, RunCli, example

#: The outputs of the repository's gold.dvc: the hashes the per-version files had (the
#: data has not changed), every shipped version of every benchmark, on the embedded remote.
SHIPPED = {
    "gold/1.0.0": "ad377a6bc7116b75527d10c62ee52c6e.dir",
    "gold/1.1.0": "77451ca33c05bc0a1aec34820e5cfd4d.dir",
    "gold/carb/1.0.0": "1dd882b85b36778cc20c1e7b60e4bcf4.dir",
    "gold/oie2016/1.0.0": "890a42e3d4513b75c9390a7ae90459e7.dir",
    "gold/oie2016/2.0.0": "a2c6092a8f2b03409cc76de5dba2f1e6.dir",
    "gold/oie2016-2018/1.0.0": "ec0907c37635fe3337b4a5601ede9060.dir",
}


def test_the_repository_has_one_gold_dvc_with_every_shipped_version() -> None:
    parsed = dvcfile.load(REPO / "gold.dvc")
    assert {o.path: o.value("md5") for o in parsed.outs} == SHIPPED
    assert all(o.remote is None for o in parsed.outs)  # the embedded remote, the default
    for md5 in SHIPPED.values():  # each directory's listing is in the embedded remote
        assert (REPO / "dvc-store" / "files" / "md5" / md5[:2] / md5[2:]).is_file(), md5
    assert parsed.render() == (REPO / "gold.dvc").read_bytes()
    assert sorted(p.relative_to(REPO).as_posix() for p in REPO.glob("gold/**/*.dvc")) == []


def test_tox_pulls_every_version_benchie_ships() -> None:
    """The test environment restores every shipped version of every benchmark by name (tox's
    ``gold`` env): a version added to the registry but not pulled would fail CI's tests, not
    the author's, whose checkout has it."""
    import configparser

    from benchie_cli.registry import BENCHMARKS

    tox = configparser.ConfigParser()
    tox.read(REPO / "tox.ini")
    pulled = set(tox["testenv:gold"]["commands"].split()[3:])
    shipped = {
        "/".join(part for part in ("gold", b.store_dir, version) if part)
        for b in BENCHMARKS.values()
        if not b.external
        for version in b.shipped
    }
    assert shipped <= pulled, shipped - pulled


def test_tracked_versions_and_remotes_of_each_store() -> None:
    assert gold_store.tracked_versions(GOLD_DIR) == ["1.0.0", "1.1.0"]
    assert gold_store.tracked_versions(GOLD_DIR / "carb") == ["1.0.0"]
    assert gold_store.tracked_versions(GOLD_DIR / "oie2016") == ["1.0.0", "2.0.0"]
    assert gold_store.dvc_remote_of(GOLD_DIR, "1.1.0") is None
    assert dvcfile.find(GOLD_DIR / "carb") == REPO.resolve() / "gold.dvc"


def write_store(tmp_path: Path, text: str | bytes) -> Path:
    """A store ``tmp_path/gold`` beside a gold.dvc of ``text``, in a DVC repository."""
    (tmp_path / ".dvc").mkdir()
    (tmp_path / "gold").mkdir()
    data = text.encode() if isinstance(text, str) else text
    (tmp_path / "gold.dvc").write_bytes(data)
    return tmp_path / "gold"


def test_outputs_as_dvc_or_a_hand_writes_them(tmp_path: Path) -> None:
    """Quoted values, a comment, a nested value, a list indented by two, and outputs that
    are not versions of this store (another benchmark's, a file, one above the store)."""
    store = write_store(
        tmp_path,
        "outs:\n"
        "  - md5: a.dir  # from `dvc add`\n"
        "    path: 'gold/2.0.0'\n"
        '    remote: "private"\n'
        "    files:\n"
        "    - relpath: x\n"
        "      md5: b\n"
        "  - path: gold/carb/3.0.0\n"
        "    remote: archive\n"
        "  - path: gold/notes.txt\n"
        "  - path: other/1.0.0\n"
        "  - path: gold/./../gold/2.1.0\n",
    )
    assert gold_store.tracked_versions(store) == ["2.0.0", "2.1.0"]
    assert gold_store.dvc_remote_of(store, "2.0.0") == "private"
    assert gold_store.tracked_versions(store / "carb") == ["3.0.0"]
    assert gold_store.dvc_remote_of(store / "carb", "3.0.0") == "archive"
    parsed = dvcfile.load(tmp_path / "gold.dvc")
    assert parsed.render() == (tmp_path / "gold.dvc").read_bytes()
    assert parsed.outs[0].value("md5") == "a.dir"


@pytest.mark.parametrize(
    "text",
    ["", "outs: []\n", "outs:\n  path: gold/2.0.0\n", "- path: gold/2.0.0\n", "\xff\xfe"],
)
def test_a_gold_dvc_without_outputs_in_dvc_form_tracks_nothing(tmp_path: Path, text: str) -> None:
    store = write_store(tmp_path, text.encode("latin-1"))
    assert gold_store.tracked_versions(store) == []


def test_a_long_gold_dvc_is_read_up_to_its_bound_without_a_cut_output(tmp_path: Path) -> None:
    """Beyond 64 KiB: the outputs read up to there, less the last one, which may be cut
    (a path ``gold/1.2`` of ``gold/1.2.3`` would name another version)."""
    entry = "- md5: {n:032x}.dir\n  size: 1\n  nfiles: 1\n  hash: md5\n  path: gold/{n}.0.0\n"
    text = "outs:\n" + "".join(entry.format(n=n) for n in range(2000))
    assert len(text) > dvcfile.MAX_BYTES
    store = write_store(tmp_path, text)
    versions = gold_store.tracked_versions(store)
    complete = text[: dvcfile.MAX_BYTES].count("  path: ") - 1
    assert versions == [f"{n}.0.0" for n in range(complete)]
    with pytest.raises(Exception, match="larger than 64 KiB"):
        dvcfile.load(tmp_path / "gold.dvc")


def test_a_fifo_gold_dvc_never_hangs(tmp_path: Path) -> None:
    (tmp_path / ".dvc").mkdir()
    store = tmp_path / "gold"
    shutil.copytree(GOLD_DIR / "1.1.0", store / "1.1.0")
    os.mkfifo(tmp_path / "gold.dvc")
    proc = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "gold", "list", "--gold-dir", str(store)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "not pulled" not in proc.stdout


def test_gold_dvc_is_looked_for_up_to_the_dvc_repository_only(tmp_path: Path) -> None:
    """A gold.dvc above the repository's root tracks nothing of it; the nearest one at or
    above the store is the store's."""
    (tmp_path / "gold.dvc").write_text("outs:\n- path: repo/gold/9.0.0\n")
    repo = tmp_path / "repo"
    (repo / ".dvc").mkdir(parents=True)
    (repo / "gold").mkdir()
    assert dvcfile.find(repo / "gold") is None
    assert gold_store.tracked_versions(repo / "gold") == []
    (repo / "gold" / "gold.dvc").write_text("outs:\n- path: 2.0.0\n")
    assert dvcfile.find(repo / "gold") == (repo / "gold" / "gold.dvc").resolve()
    assert gold_store.tracked_versions(repo / "gold") == ["2.0.0"]


def test_not_pulled_version_names_the_dvc_pull_of_its_output(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, alone: None
) -> None:
    store = write_store(
        tmp_path,
        "outs:\n- md5: a.dir\n  path: gold/2.0.0\n  remote: private\n"
        "- md5: b.dir\n  path: gold/carb/1.0.0\n",
    )
    (store / "carb").mkdir()
    shutil.copytree(GOLD_DIR / "1.1.0", store / "1.1.0")
    score = cli("score", "--gold-dir", store, "--gold-version", "2.0.0", example("en", "clausie"))
    assert score.exit_code == 2
    assert (
        "gold 2.0.0 is tracked by DVC (gold.dvc) but not pulled; it is kept on the DVC "
        f"remote 'private': run `dvc pull {store / '2.0.0'}`"
    ) in score.stderr
    listed = cli("benchmark", "list", "--gold-dir", store).stdout
    assert f"`dvc pull {store / 'carb' / '1.0.0'}`" in listed
    monkeypatch.chdir(tmp_path)  # in the repository: the command as one types it there
    again = cli("score", "--gold-dir", "gold", "--gold-version", "2.0.0", example("en", "clausie"))
    assert "run `dvc pull gold/2.0.0`" in again.stderr
    assert "`dvc pull gold/carb/1.0.0`" in cli("benchmark", "list", "--gold-dir", "gold").stdout


def test_a_version_not_pulled_is_no_store_either(cli: RunCli, tmp_path: Path) -> None:
    """`gold new --gold-dir gold/2.0.0` where 2.0.0 is an output of gold.dvc but not
    pulled (no manifest to recognise it by) is refused before anything is written."""
    store = write_store(tmp_path, "outs:\n- md5: a.dir\n  path: gold/2.0.0\n")
    src = tmp_path / "src" / "en" / "default"
    src.mkdir(parents=True)
    shutil.copy(GOLD_DIR / "1.1.0" / "en" / "default" / "benchie_gold_annotations_en.txt", src)
    (store / "2.0.0").mkdir()
    result = cli(
        "gold", "new", "3.0.0", "--from", tmp_path / "src", "--description", "d",
        "--license", "l", "--no-dvc", "--gold-dir", store / "2.0.0",
    )  # fmt: skip
    assert result.exit_code == 2
    assert f"{(store / '2.0.0').resolve()} is tracked by DVC" in result.stderr
    assert list((store / "2.0.0").iterdir()) == []


def test_the_checkout_is_recognised_by_its_gold_dvc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = dirs.checkout_gold_dir()
    assert found is not None and found.path == REPO / "gold"
    # A clone with a regular install, its gold not pulled: found from the working directory.
    clone = tmp_path / "clone"
    (clone / "sub").mkdir(parents=True)
    (clone / "gold.dvc").write_bytes((REPO / "gold.dvc").read_bytes())
    fake_package = tmp_path / "site" / "benchie_cli" / "gold" / "dirs.py"
    monkeypatch.setattr(dirs, "__file__", str(fake_package))
    monkeypatch.chdir(clone / "sub")
    found = dirs.checkout_gold_dir()
    assert found is not None and found.path == clone.resolve() / "gold"
    assert found.detail == "the working directory"
    (clone / "gold.dvc").write_text("outs:\n- path: data/1.0.0\n")  # no gold version
    assert dirs.checkout_gold_dir() is None


def test_no_output_overwrites_gold_dvc(cli: RunCli, tmp_path: Path) -> None:
    """gold.dvc lies beside the store, not in it, and records every version: `-o` naming
    it (or a link to it) is refused like a file of the store, nothing written."""
    before = (REPO / "gold.dvc").read_bytes()
    link = tmp_path / "link.json"
    link.symlink_to(REPO / "gold.dvc")
    for target in (REPO / "gold.dvc", link):
        result = cli(
            "score", "--lang", "en", example("en", "clausie"), "--format", "json", "-o", target
        )
        assert result.exit_code == 2
        assert "is the DVC file of the gold store" in result.stderr
    assert (REPO / "gold.dvc").read_bytes() == before


def test_an_updated_output_keeps_its_settings_not_its_old_hash() -> None:
    """What `gold release` writes for a version's output: the hash `dvc add` computed,
    and of the old output only what was said of it (its remote, `push: false`), never its
    old content (hash, size, a cloud-versioned remote's list of files)."""
    old = dvcfile.parse(
        "outs:\n- md5: old.dir\n  size: 1\n  files:\n  - relpath: a\n    md5: x\n"
        "  path: gold/2.0.0\n  remote: private\n  push: false\n"
    )
    fresh = dvcfile.parse("outs:\n- md5: new.dir\n  size: 2\n  nfiles: 1\n  path: 2.0.0\n")
    assert old is not None and fresh is not None
    updated = fresh.outs[0].with_key("path", "gold/2.0.0").keeping(old.outs[0])
    merged = old.with_output(updated).render().decode()
    assert merged == (
        "outs:\n- md5: new.dir\n  size: 2\n  nfiles: 1\n  path: gold/2.0.0\n"
        "  remote: private\n  push: false\n"
    )
