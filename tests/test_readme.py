"""The README and docs/, run as a newcomer runs them: every ``sh`` block, as written, in a
fresh copy.

The copy holds what git would give a clone (tracked and new files, no pulled gold, no
venv), committed to a new git repository. The README's Quick start block then creates
``.venv``, installs the package with DVC from the copy (from the package index: about a
minute), pulls the gold from the embedded remote and scores; later blocks run in order in
the same copy: the README's, then those of the pages of docs/ by name. The private-gold
recipe (docs/gold-versions.md) is then checked end to end: a clone without access to the
private remote still pulls and scores every public version, a clone with access gets the
private one too. Blocks that need a container engine run in ``test_readme_container.py``;
the few no test can run are listed, with why, in ``readme_blocks.NOT_RUN``.

Marked ``readme`` (``tox -e readme``): it installs packages, so it is kept out of the
per-Python runs.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
from pathlib import Path

import orjson
import pytest

from tests.conftest import REPO
from tests.readme_blocks import Block, blocks, not_run, runnable_text

pytestmark = pytest.mark.readme

CLAUSIE_F1 = 0.33889980353634575  # ClausIE, English, gold 1.1.0 (the published 0.3389)
EN_1_1_0 = "b10e0a527811b9b207ad201d9485a3d4969e1dca1946b12a5687cc35579053bd"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Organiser",
    "GIT_AUTHOR_EMAIL": "organiser@example.org",
    "GIT_COMMITTER_NAME": "Organiser",
    "GIT_COMMITTER_EMAIL": "organiser@example.org",
}


def user_env(cache: Path) -> dict[str, str]:
    """A user's environment: none of the test session's gold or venv settings."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("BENCHIE_", "VIRTUAL_ENV", "PYTHON", "TOX_", "DVC_"))
    }
    env.update(GIT_ENV, BENCHIE_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1")
    return env


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=900
    )


def run_block(block: Block, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    proc = run(["bash", "-euo", "pipefail", "-c", runnable_text(block)], cwd, env)
    # pip's own warnings about the machine's configuration would hide the cause.
    said = "\n".join(ln for ln in proc.stderr.splitlines() if not ln.startswith("WARNING: "))
    assert proc.returncode == 0, f"{block}\n{proc.stdout[-3000:]}\n{said[-3000:]}"
    return proc


def block_starting(prefix: str) -> Block:
    found = [b for b in blocks() if b.text.startswith(prefix)]
    assert len(found) == 1, f"README and docs/ have {len(found)} sh block(s) starting {prefix!r}"
    return found[0]


def fresh_copy(dest: Path, env: dict[str, str]) -> None:
    """What a clone of this working tree holds, as a new git repository."""
    listed = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], REPO, env)
    if listed.returncode != 0:
        pytest.skip(f"{REPO} is not a git checkout: {listed.stderr.strip()}")
    for rel in filter(None, listed.stdout.split("\0")):
        source = REPO / rel
        if source.is_file():  # a file deleted in the working tree is listed but absent
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / rel)
    for args in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "x"]):
        assert run(args, dest, env).returncode == 0


Organiser = tuple[Path, dict[str, str], dict[str, subprocess.CompletedProcess[str]]]


@pytest.fixture(scope="module")
def organiser(tmp_path_factory: pytest.TempPathFactory) -> Organiser:
    """A fresh copy after every block this test runs, and each block's output by
    ``PATH:LINE``."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("org")
    env = user_env(tmp_path_factory.mktemp("cache"))
    checkout = root / "benchie-cli"
    fresh_copy(checkout, env)
    outputs = {
        block.key: run_block(block, checkout, env)
        for block in blocks()
        if not block.needs_container and not_run(block) is None
    }
    return checkout, env, outputs


def benchie(checkout: Path, venv: Path, *args: str) -> list[str]:
    """``benchie`` running the code of ``checkout`` with the Python of ``venv``."""
    return [
        "env",
        f"PYTHONPATH={checkout}",
        str(venv / "bin" / "python"),
        "-m",
        "benchie_cli",
        *args,
    ]


# --------------------------------------------------------------------------- the blocks


def test_every_block_has_a_runner() -> None:
    """Each block is run here, in the container test, or listed with a reason; a reason
    whose block is gone from the README and docs/ is an error too."""
    found = blocks()
    assert any(b.path == "README.md" for b in found), "no sh block found in README.md"
    assert any(b.path.startswith("docs/") for b in found), "no sh block found in docs/"
    from tests.readme_blocks import NOT_RUN

    lines = [line for b in found for line in b.text.splitlines()]
    for start in NOT_RUN:
        assert any(line.startswith(start) for line in lines), start


def test_tox_environments_named_exist() -> None:
    """The blocks not run (they are the test suite) name only environments tox has."""
    tox = configparser.ConfigParser()
    tox.read(REPO / "tox.ini")
    envs = {s.removeprefix("testenv:") for s in tox.sections()} | {
        e.strip() for e in tox["tox"]["env_list"].split(",")
    }
    named = [
        env
        for b in blocks()
        for line in b.text.splitlines()
        if "/tox -e " in line
        for env in line.split("/tox -e ")[1].split()[0].split(",")
    ]
    # tox makes an environment of every pyXY name (a Python version) without a section.
    builtin = {n for n in named if re.fullmatch(r"py3[0-9]*", n)}
    assert named and set(named) <= envs | builtin, set(named) - envs - builtin
    for b in blocks():
        assert run(["bash", "-n", "-c", b.text], REPO, dict(os.environ)).returncode == 0, b


def test_quick_start_writes_the_report_it_names(organiser: Organiser) -> None:
    checkout, _, _ = organiser
    report = orjson.loads((checkout / "clausie-report.json").read_bytes())
    assert report["systems"][0]["f1"] == CLAUSIE_F1
    assert report["gold"]["files"][0]["sha256"] == EN_1_1_0
    assert (checkout / "analysis.html").read_bytes().startswith(b"<!DOCTYPE html>")


def test_quick_start_says_what_it_wrote(organiser: Organiser) -> None:
    _, _, outputs = organiser
    proc = outputs[block_starting("python3 -m venv .venv").key]
    assert "wrote clausie-report.json (json: 1 system(s), gold 1.1.0)" in proc.stderr


# --------------------------------------------------------------------------- private gold


def test_private_version_is_tracked_on_its_remote_only(
    organiser: Organiser,
) -> None:
    checkout, env, _ = organiser
    dvc_file = (checkout / "gold.dvc").read_text()
    public = (REPO / "gold.dvc").read_text()
    assert dvc_file.startswith(public)  # every public version's output as it was
    added = dvc_file[len(public) :]  # 2.0.0's output, on its own remote
    assert added.startswith("- md5: ") and added.endswith("  path: gold/2.0.0\n  remote: private\n")
    listing = added.split("md5: ")[1].split()[0]  # the version's directory listing
    private = checkout.parent / "acme-private-gold" / "files" / "md5"
    assert (private / listing[:2] / listing[2:]).is_file()
    assert not (checkout / "dvc-store" / "files" / "md5" / listing[:2] / listing[2:]).exists()
    assert not (checkout / "gold" / "2.0.0.dvc").exists()
    status = run(["git", "status", "--porcelain", "gold", ".dvc", "gold.dvc"], checkout, env)
    assert status.stdout == ""
    manifest = orjson.loads((checkout / "gold" / "2.0.0" / "manifest.json").read_bytes())
    assert "status" not in manifest  # released
    assert [f["sha256"] for f in manifest["files"]] == [EN_1_1_0]


def test_clone_without_the_private_remote_pulls_and_scores_the_public_gold(
    organiser: Organiser, tmp_path: Path
) -> None:
    checkout, env, _ = organiser
    venv = checkout / ".venv"
    clone = tmp_path / "participant" / "benchie-cli"  # ../acme-private-gold is not there
    assert run(["git", "clone", "-q", str(checkout), str(clone)], tmp_path, env).returncode == 0
    pull = run([str(venv / "bin" / "dvc"), "pull"], clone, env)
    assert pull.returncode == 1
    assert "gold/2.0.0" in pull.stdout + pull.stderr
    pulled = sorted(p.name for p in (clone / "gold").iterdir() if p.is_dir())
    # every public version, every benchmark
    assert pulled == ["1.0.0", "1.1.0", "carb", "oie2016", "oie2016-2018"]
    verify = run(benchie(clone, venv, "gold", "verify"), clone, env)
    assert verify.returncode == 0, verify.stderr
    assert "2.0.0: tracked by DVC, not pulled (not verified)" in verify.stdout
    listed = run(benchie(clone, venv, "gold", "list"), clone, env)
    assert "2.0.0 (not pulled)" in listed.stdout
    clausie = "examples/submissions/en/clausie.tsv"
    score = run(benchie(clone, venv, "score", "--lang", "en", clausie, "-o", "r.json"), clone, env)
    assert score.returncode == 0, score.stderr
    assert orjson.loads((clone / "r.json").read_bytes())["systems"][0]["f1"] == CLAUSIE_F1
    private = run(
        benchie(clone, venv, "score", "--gold-version", "2.0.0", "--lang", "en", clausie),
        clone,
        env,
    )
    assert private.returncode == 2
    assert "gold 2.0.0 is tracked by DVC (gold.dvc) but not pulled" in private.stderr
    assert "run `dvc pull gold/2.0.0`" in private.stderr
    assert "kept on the DVC remote 'private'" in private.stderr


def test_clone_with_the_private_remote_scores_the_private_gold(
    organiser: Organiser,
) -> None:
    checkout, env, _ = organiser
    venv = checkout / ".venv"
    clone = checkout.parent / "second-clone"  # ../acme-private-gold is reachable from here
    if clone.exists():
        shutil.rmtree(clone)
    assert run(["git", "clone", "-q", str(checkout), str(clone)], checkout, env).returncode == 0
    pull = run([str(venv / "bin" / "dvc"), "pull", "-q"], clone, env)
    assert pull.returncode == 0, pull.stderr
    clausie = "examples/submissions/en/clausie.tsv"
    args = ("score", "--gold-version", "2.0.0", "--lang", "en", clausie, "-o", "r.json")
    score = run(benchie(clone, venv, *args), clone, env)
    assert score.returncode == 0, score.stderr
    report = orjson.loads((clone / "r.json").read_bytes())
    assert report["gold"]["version"] == "2.0.0" and report["gold"]["files"][0]["sha256"] == EN_1_1_0
    assert report["systems"][0]["f1"] == CLAUSIE_F1
    verify = run(benchie(clone, venv, "gold", "verify"), clone, env)
    assert verify.returncode == 0 and "2.0.0: released, 1 file(s)" in verify.stdout
