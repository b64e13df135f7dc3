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
from pathlib import Path

import orjson
import pytest

from benchie_cli import __version__
from benchie_cli.platform import scoring_metadata

from .conftest import EXAMPLES, GOLD_DIR, REPO
from .test_container import STAND_IN, Image, _run, image_config, require_engine

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
    """The worker's directories: the scoring program (its metadata.yaml), the reference
    pinning gold 1.1.0's English file, the participant's en.tsv with the worker's metadata
    file, and an output directory owned by root, mode 0755."""
    root = tmp_path / "worker"
    for name in ("program", "ref", "res", "output"):
        (root / name).mkdir(parents=True)
    (root / "program" / "metadata.yaml").write_text(scoring_metadata(), encoding="utf-8")
    manifest = orjson.loads((GOLD_DIR / "1.1.0" / "manifest.json").read_bytes())
    (entry,) = [f for f in manifest["files"] if f["path"].startswith("en/default/")]
    spec = {"gold_version": "1.1.0", "gold_sha256": {"en": entry["sha256"]}, "languages": ["en"]}
    (root / "ref" / "benchie.json").write_text(json.dumps(spec), encoding="utf-8")
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
