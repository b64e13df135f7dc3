"""The Codabench image (``--target codabench``) run the way Codabench's compute worker runs
it (../shared/codabench.md when building; the facts are restated here): the image's own
USER, working directory ``/app/program``, every capability dropped, no-new-privileges, no
network, ``/app/output`` a directory owned by root with mode 0755, the participant's files
in ``/app/input/res`` beside the worker's own ``metadata`` file, and the command of the
scoring program's ``metadata.yaml`` split like a shell line after the image's ENTRYPOINT.

Run by ``tox -e container``; skips, saying why, without a Docker engine or the stand-in.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from benchie_cli import __version__
from tests.conftest import EXAMPLES, REPO
from tests.test_container import (
    STAND_IN,
    Image,
    _run,
    built_from_dist_wheel,
    image_config,
    require_engine,
)

pytestmark = pytest.mark.container

#: ClausIE's F1 under gold 1.1.0, as the README shows it.
README_F1 = 0.33889980353634575


@pytest.fixture(scope="module")
def codabench() -> Image:
    engine = require_engine()
    build = _run(
        [str(REPO / "scripts" / "build-image"), "--builder", engine, "--target", "codabench"],
        cwd=REPO,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    tag = build.stdout.strip().splitlines()[-1]
    assert tag == f"benchie:{__version__}-codabench"
    return Image(engine, tag)


def _metadata_command(program: Path) -> list[str]:
    """The worker's reading of ``metadata.yaml``: the ``command`` value, split with shlex."""
    for line in (program / "metadata.yaml").read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "command":
            return shlex.split(value.strip())
    raise AssertionError("metadata.yaml has no command")


def _worker_run(image: Image, root: Path) -> subprocess.CompletedProcess[str]:
    """Run the image as the compute worker does, on the directories under ``root``."""
    mounts = [
        f"{root / 'program'}:/app/program",
        f"{root / 'ref'}:/app/input/ref:ro",
        f"{root / 'res'}:/app/input/res:ro",
        f"{root / 'output'}:/app/output",
    ]
    command = _metadata_command(root / "program")
    volumes = [arg for m in mounts for arg in ("-v", m)]
    if image.engine == "docker":
        return _run(
            [
                "docker", "run", "--rm", "--network", "none", "--cap-drop", "ALL",
                "--security-opt", "no-new-privileges", "-w", "/app/program",
                *volumes, image.tag, *command,
            ]
        )  # fmt: skip
    return _run(
        [
            str(STAND_IN / "image-run"), "-w", "/app/program", "--cap-drop-all",
            "--no-new-privs", "--no-network", *volumes, image.tag, *command,
        ]
    )  # fmt: skip


def _competition(tmp_path: Path, submission: bytes) -> Path:
    """The worker's directories, from a bundle made by ``benchie platform bundle``: its
    scoring program (the ``metadata.yaml`` the worker reads) and its reference data (the
    gold 1.1.0 pins), the participant's en.tsv with the worker's metadata file, and an
    output directory owned by root, mode 0755."""
    bundle = tmp_path / "bundle.zip"
    made = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "platform", "bundle", "--gold-version", "1.1.0",
         "-o", str(bundle)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    root = tmp_path / "worker"
    with zipfile.ZipFile(bundle) as zf:
        for member in zf.namelist():
            for folder, name in (("scoring_program/", "program"), ("reference_data/", "ref")):
                if member.startswith(folder) and not member.endswith("/"):
                    target = root / name / member[len(folder) :]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(zf.read(member))
    assert (root / "program" / "metadata.yaml").is_file() and (root / "ref").is_dir()
    for name in ("res", "output"):
        (root / name).mkdir(parents=True)
    (root / "res" / "en.tsv").write_bytes(submission)
    (root / "res" / "metadata").write_text("submitted-by: someone\n", encoding="utf-8")
    output = root / "output"
    output.chmod(0o755)
    assert output.stat().st_uid == 0, "the test runs as root, as the worker does"
    return root


def test_the_image_is_configured_for_the_worker(codabench: Image) -> None:
    config = image_config(codabench)
    assert config.get("User") in ("0:0", "0")
    assert not config.get("Entrypoint")  # the worker keeps it in front of the command
    assert config.get("WorkingDir") == "/app/program"
    assert config["Labels"]["io.benchie.variant"] == "codabench"
    built_from_dist_wheel(config["Labels"])  # the wheel researchers pip-install


def test_scores_clausie_as_the_worker_runs_it(codabench: Image, tmp_path: Path) -> None:
    root = _competition(tmp_path, (EXAMPLES / "en" / "clausie.tsv").read_bytes())
    res = _worker_run(codabench, root)
    assert res.returncode == 0, res.stdout + res.stderr
    scores = json.loads((root / "output" / "scores.json").read_text(encoding="utf-8"))
    assert scores["en_default_f1"] == README_F1 and scores["mean_f1"] == README_F1
    assert all(len(key) <= 36 for key in scores)
    assert (root / "output" / "detailed_results.html").is_file()
    assert not (root / "output" / "metadata").exists()  # the worker's file, written after


def test_a_broken_submission_fails_naming_en_tsv(codabench: Image, tmp_path: Path) -> None:
    root = _competition(tmp_path, b"1\tHe\tserved as\tPrime Minister\n2\tonly two\n")
    res = _worker_run(codabench, root)
    assert res.returncode != 0
    assert "en.tsv:2: error:" in res.stderr and "Traceback" not in res.stderr
    assert not (root / "output" / "scores.json").exists()
