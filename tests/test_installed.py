"""The wheel works anywhere: built from this checkout, installed into a fresh virtual
environment in an empty directory outside it (no checkout to find, no DVC, site-packages
read-only, an unprivileged user when the tests run as root), it scores, verifies and adds
gold exactly as the checkout does, offline (``tox -e installed``).

The build (sdist, then the wheel from the sdist, as ``python -m build`` does) needs the
shipped gold pulled (``tox -e gold``) and the package index for setuptools; installing the
wheel needs its dependencies from the index. The commands run with every proxy pointed at
a closed port: nothing they do may need the network.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from benchie_cli import __version__
from benchie_cli.gold.shipped import shipped_versions
from tests.benchmarks.test_benchmark_add import WIRE
from tests.conftest import DATA, EXAMPLES, GOLD_DIR, REPO

pytestmark = pytest.mark.installed

WHEEL = f"benchie_cli-{__version__}-py3-none-any.whl"
SDIST = f"benchie_cli-{__version__}.tar.gz"
#: The uid and gid the commands run as when the tests run as root (``nobody``).
NOBODY = 65534
#: Runs ``benchie`` with a stand-in of WiRe57's published file pinned in the registry in
#: place of the real one (which has no licence and is not in this repository), as
#: tests/benchmarks/test_benchmark_add.py pins it; everything else is the installed code.
STAND_IN_LAUNCHER = """
import hashlib, os, sys
from benchie_cli.gold import external
from benchie_cli.registry import BENCHMARKS
data = open(os.environ["STAND_IN"], "rb").read()
sha = hashlib.sha256(data).hexdigest()
entry = BENCHMARKS["wire57"]
published = entry.published[0]._replace(sha256=sha)
manifest = external.manifest_bytes_for("wire57", sha, len(data), int(os.environ["SENTENCES"]))
BENCHMARKS["wire57"] = entry._replace(
    published=(published, *entry.published[1:]),
    shipped={"1.0.0": hashlib.sha256(manifest).hexdigest()},
)
from benchie_cli.entry import main
sys.argv[0] = "benchie"
main()
"""


def _run(args: list[str | Path], **kwargs: object) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, check=False, **kwargs
    )  # type: ignore[call-overload]
    assert isinstance(proc, subprocess.CompletedProcess)
    return proc


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel, built as a release is: ``python -m build``, the wheel from
    the sdist, its timestamps those of the last commit (reproducible)."""
    out = tmp_path_factory.mktemp("dist")
    epoch = _run(["git", "-C", REPO, "log", "-1", "--format=%ct"]).stdout.strip() or "0"
    env = {**os.environ, "SOURCE_DATE_EPOCH": epoch}
    proc = _run([sys.executable, "-m", "build", "--outdir", out, REPO], env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert sorted(p.name for p in out.iterdir()) == sorted([SDIST, WHEEL])
    return out


def test_twine_check_passes_on_both_distributions(dist: Path) -> None:
    proc = _run([sys.executable, "-m", "twine", "check", "--strict", dist / SDIST, dist / WHEEL])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASSED") == 2


def test_the_wheel_carries_every_shipped_version_and_nothing_else(dist: Path) -> None:
    """Each shipped version's manifest, listed files and attribution, byte for byte as the
    checkout's; no other gold, no DVC file, no test."""
    prefix = "benchie_cli/data/gold/"
    with zipfile.ZipFile(dist / WHEEL) as wheel:
        packed = {n[len(prefix) :]: wheel.read(n) for n in wheel.namelist() if n.startswith(prefix)}
        names = wheel.namelist()
    expected: dict[str, bytes] = {}
    for shipped in shipped_versions():
        directory = GOLD_DIR / shipped.relative
        manifest = json.loads((directory / "manifest.json").read_bytes())
        rels = ["manifest.json", *(f["path"] for f in manifest["files"])]
        rels += [p.name for p in directory.iterdir() if p.is_file()]
        for rel in rels:
            expected[f"{shipped.relative}/{rel}"] = (directory / rel).read_bytes()
    assert packed == expected
    assert not [n for n in names if n.startswith("tests/") or n.endswith(".dvc")]


def test_the_sdist_carries_the_gold_the_wheel_is_built_from(dist: Path) -> None:
    import tarfile

    with tarfile.open(dist / SDIST) as sdist:
        names = {m.name.split("/", 1)[1] for m in sdist.getmembers() if m.isfile()}
    for shipped in shipped_versions():
        assert f"gold/{shipped.relative}/manifest.json" in names
    assert {"setup.py", "pyproject.toml", "build_backend.py", "MANIFEST.in"} <= names


def test_the_readme_states_the_wheel_size(dist: Path) -> None:
    stated = re.search(r"the wheel is ([0-9.]+) MB", (REPO / "README.md").read_text())
    assert stated is not None, "README: say the wheel's size ('the wheel is N.N MB')"
    size = (dist / WHEEL).stat().st_size / 1e6
    assert abs(size - float(stated[1])) <= 0.2, f"the wheel is {size:.1f} MB now"


def _copy_checkout(copy: Path, missing: tuple[str, ...] = (), private: bool = False) -> None:
    """The checkout's tracked files and its shipped gold (but ``missing``) in ``copy``;
    ``private``: every file 0600 and directory 0700, as a clone made under umask 077."""
    tracked = _run(["git", "-C", REPO, "ls-files", "-z"]).stdout.split("\0")
    for rel in filter(None, tracked):
        source = REPO / rel
        if source.is_file() and not rel.startswith(("tests/", "docs/", "perf/", "dvc-store/")):
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copy / rel)
    for shipped in shipped_versions():
        if shipped.relative not in missing:
            shutil.copytree(GOLD_DIR / shipped.relative, copy / "gold" / shipped.relative)
    if private:
        for path in [copy, *copy.rglob("*")]:
            path.chmod(0o700 if path.is_dir() else 0o600)


def test_a_build_without_shipped_versions_stops_naming_each(tmp_path: Path) -> None:
    """A checkout where shipped versions are not pulled builds nothing, and leaves nothing
    behind: the build names each version, and the command that pulls it."""
    missing = (shipped_versions()[0].relative, shipped_versions()[-1].relative)
    _copy_checkout(tmp_path / "checkout", missing)
    before = sorted(p.name for p in (tmp_path / "checkout").iterdir())
    out = tmp_path / "out"
    proc = _run([sys.executable, "-m", "build", "--outdir", out, tmp_path / "checkout"])
    assert proc.returncode != 0
    said = proc.stdout + proc.stderr
    for relative in missing:
        assert f"is not pulled: run `dvc pull gold/{relative}`" in said
    assert not out.exists() or not list(out.iterdir())
    after = sorted(p.name for p in (tmp_path / "checkout").iterdir())
    # (what setuptools and the import system write in any build: the metadata it starts
    # from, and the bytecode of the in-tree backend, build_backend.py; both ignored by git)
    assert {n for n in after if n not in before} <= {"benchie_cli.egg-info", "__pycache__"}


def test_the_wheel_is_the_same_bytes_under_any_umask(dist: Path, tmp_path: Path) -> None:
    """Built from a clone whose files are all private (umask 077), at the same commit
    time, the wheel is the fixture's, byte for byte."""
    _copy_checkout(tmp_path / "checkout", private=True)
    epoch = _run(["git", "-C", REPO, "log", "-1", "--format=%ct"]).stdout.strip() or "0"
    out = tmp_path / "out"
    env = {**os.environ, "SOURCE_DATE_EPOCH": epoch}
    proc = _run([sys.executable, "-m", "build", "--outdir", out, tmp_path / "checkout"], env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (out / WHEEL).read_bytes() == (dist / WHEEL).read_bytes()


# --------------------------------------------------------------------------- installed


class Installed:
    """A fresh venv with the wheel, in an empty directory outside the checkout."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.work = root / "work"
        self.home = root / "home"
        self.venv = root / "venv"
        self.site = next((self.venv / "lib").glob("python3*/site-packages"))
        self.as_nobody = os.geteuid() == 0

    def env(self, **extra: str) -> dict[str, str]:
        closed = "http://127.0.0.1:9"  # a closed port: any attempt to go online fails
        return {
            "PATH": f"{self.venv / 'bin'}:/usr/bin:/bin",
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "http_proxy": closed,
            "https_proxy": closed,
            "HTTP_PROXY": closed,
            "HTTPS_PROXY": closed,
            **extra,
        }

    def run(self, *args: str | Path, **extra: str) -> subprocess.CompletedProcess[str]:
        """``benchie ARGS`` (or ``python ARGS`` when the first is ``python``) in the empty
        directory, as ``nobody`` when the tests run as root."""
        program = (
            [self.venv / "bin" / "python", *args[1:]]
            if args[0] == "python"
            else [self.venv / "bin" / "benchie", *args]
        )
        drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        command = [*drop, *program] if self.as_nobody else program
        return _run(command, cwd=self.work, env=self.env(**extra))

    def tree(self) -> dict[str, str]:
        """Every file of site-packages with its sha256: what a run must never change."""
        return {
            str(p.relative_to(self.site)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(self.site.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts
        }


@pytest.fixture(scope="module")
def installed(dist: Path) -> Iterator[Installed]:
    root = Path(tempfile.mkdtemp(prefix="benchie-installed-")).resolve()
    assert REPO not in root.parents and not (root / "gold.dvc").exists()
    try:
        proc = _run([sys.executable, "-m", "venv", root / "venv"])
        assert proc.returncode == 0, proc.stderr
        pip = [root / "venv" / "bin" / "python", "-m", "pip", "install", "--quiet"]
        proc = _run([*pip, "--disable-pip-version-check", dist / WHEEL])
        assert proc.returncode == 0, proc.stderr[-3000:]
        box = Installed(root)
        for directory in (box.work, box.home):
            directory.mkdir()
        root.chmod(0o755)
        if box.as_nobody:
            for directory in (box.work, box.home):
                os.chown(directory, NOBODY, NOBODY)
        for path in [box.venv, *box.venv.rglob("*")]:  # read-only for everyone (but root)
            if not path.is_symlink():
                mode = path.stat().st_mode
                path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) | 0o444)
        yield box
    finally:
        for path in [root, *root.rglob("*")]:
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | stat.S_IWUSR)
        shutil.rmtree(root, ignore_errors=True)


def _in_checkout(
    cli_process: Callable[..., subprocess.CompletedProcess[str]], cwd: Path, *args: str | Path
) -> subprocess.CompletedProcess[str]:
    """The same command in this checkout (its gold), from ``cwd``."""
    return subprocess.run(
        [sys.executable, "-m", "benchie_cli", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "BENCHIE_GOLD_DIR": str(GOLD_DIR)},
    )


def test_the_installed_package_store_is_the_only_gold(installed: Installed) -> None:
    proc = installed.run("gold", "path", "--all", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    stores = {s["store"]: s for s in json.loads(proc.stdout)["stores"]}
    assert "checkout" not in stores
    package = stores["installed package"]
    assert Path(package["path"]).is_relative_to(installed.site)
    held = {(h["gold"], h["version"]) for h in package["holds"]}
    assert {(s.benchmark, s.version) for s in shipped_versions()} == held
    assert stores["user data"]["path"] == str(installed.home / ".local/share/benchie-cli/gold")


def test_score_prints_the_checkouts_table_and_signature(
    installed: Installed,
    tmp_path: Path,
    cli_process: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    for lang, system in (("en", "clausie"), ("de", "minie"), ("zh", "m2oie_zh")):
        source = EXAMPLES / lang / f"{system}.tsv"
        if not source.exists():
            continue
        shutil.copyfile(source, installed.work / source.name)
        shutil.copyfile(source, tmp_path / source.name)
        here = installed.run("score", "--lang", lang, source.name)
        there = _in_checkout(cli_process, tmp_path, "score", "--lang", lang, source.name)
        assert here.returncode == 0, here.stderr
        assert here.stdout == there.stdout and "|gold:1.1.0@" in here.stdout


def test_reports_are_the_checkouts_byte_for_byte_and_verify_there(
    installed: Installed,
    tmp_path: Path,
    cli_process: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    """A report scored in the checkout re-derives to the byte from the wheel's gold; one
    scored from the wheel is the checkout's bytes."""
    shutil.copyfile(EXAMPLES / "en" / "clausie.tsv", installed.work / "clausie.tsv")
    shutil.copyfile(EXAMPLES / "en" / "clausie.tsv", tmp_path / "clausie.tsv")
    made = _in_checkout(
        cli_process, tmp_path, "score", "--lang", "en", "clausie.tsv", "-o", "r.json"
    )
    assert made.returncode == 0, made.stderr
    shutil.copyfile(tmp_path / "r.json", installed.work / "checkout.json")
    proc = installed.run("verify", "checkout.json")
    assert proc.returncode == 0, proc.stderr
    assert "re-derived byte for byte" in proc.stdout + proc.stderr
    proc = installed.run("score", "--lang", "en", "clausie.tsv", "-o", "wheel.json")
    assert proc.returncode == 0, proc.stderr
    assert (installed.work / "wheel.json").read_bytes() == (tmp_path / "r.json").read_bytes()


def test_the_suite_is_the_checkouts(
    installed: Installed,
    tmp_path: Path,
    cli_process: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    import gzip

    data = gzip.decompress((DATA / "carb" / "openie4_output.txt.gz").read_bytes())
    (installed.work / "openie4.txt").write_bytes(data)
    (tmp_path / "openie4.txt").write_bytes(data)
    proc = installed.run("score", "--suite", "openie4.txt", "-o", "suite.json")
    assert proc.returncode == 0, proc.stderr
    there = _in_checkout(cli_process, tmp_path, "score", "--suite", "openie4.txt", "-o", "s.json")
    assert there.returncode == 0, there.stderr
    assert (installed.work / "suite.json").read_bytes() == (tmp_path / "s.json").read_bytes()
    rows = json.loads((installed.work / "suite.json").read_bytes())["rows"]
    assert {r["benchmark"] for r in rows if "skipped" not in r} >= {"benchie", "carb", "oie2016"}


def test_gold_verify_checks_the_wheels_gold(installed: Installed) -> None:
    proc = installed.run("gold", "verify")
    assert proc.returncode == 0, proc.stderr
    assert "1.1.0: released, shipped with benchie-cli" in proc.stdout
    assert proc.stdout.rstrip().splitlines()[-1].startswith("ok: ")


def test_benchmark_add_writes_to_the_users_directory_never_site_packages(
    installed: Installed,
) -> None:
    """``benchmark add`` of a published file (a stand-in, pinned) as a user who cannot
    write site-packages: it goes to the user's data directory, and scores from there."""
    before = installed.tree()
    stand_in = installed.work / "WiRe57_343-manual-oie.json"
    doc = {name: [s for s in sentences if s["tuples"]] for name, sentences in WIRE.items()}
    stand_in.write_text(json.dumps(doc, ensure_ascii=False, indent=1))  # WiRe57's scorer
    env = {"STAND_IN": str(stand_in), "SENTENCES": "2"}  # fails on a sentence without tuples
    added = installed.run(
        "python", "-c", STAND_IN_LAUNCHER, "benchmark", "add", "wire57", stand_in.name, **env
    )
    assert added.returncode == 0, added.stderr
    store = installed.home / ".local/share/benchie-cli/gold/wire57/1.0.0"
    assert (store / "manifest.json").is_file()
    assert str(store.parent) in added.stderr
    submission = installed.work / "system.txt"
    submission.write_text("Tokyo is the capital of Japan .\t0.9\tis the capital of\tTokyo\tJapan\n")
    scored = installed.run(
        "python", "-c", STAND_IN_LAUNCHER, "score", "--benchmark", "wire57", submission.name, **env
    )
    assert scored.returncode == 0, scored.stderr
    assert "wire57" in scored.stdout
    listed = installed.run("python", "-c", STAND_IN_LAUNCHER, "gold", "path", "--all", **env)
    assert "wire57 1.0.0" in listed.stdout
    assert installed.tree() == before


def test_directories_the_user_cannot_read_cost_nothing(installed: Installed) -> None:
    """A user data directory or a cache directory this user cannot read (another user's
    HOME kept by ``sudo -u`` or ``docker run --user``) is skipped: the shipped gold
    scores, the same table."""
    if not installed.as_nobody:
        pytest.skip("needs root, to make a directory that the user running benchie cannot read")
    locked = installed.root / "locked"
    locked.mkdir(mode=0o700)
    shutil.copyfile(EXAMPLES / "en" / "clausie.tsv", installed.work / "clausie.tsv")
    plain = installed.run("score", "--lang", "en", "clausie.tsv")
    for name in ("BENCHIE_DATA_DIR", "BENCHIE_CACHE_DIR"):
        proc = installed.run("score", "--lang", "en", "clausie.tsv", **{name: str(locked / "x")})
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == plain.stdout
    proc = installed.run("score", "--lang", "en", "clausie.tsv", HOME=str(locked))
    assert proc.returncode == 0 and proc.stdout == plain.stdout, proc.stderr
