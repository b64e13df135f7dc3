"""The container commands (``docker ...``, ``scripts/build-image``) of the README and docs/,
run as written.

Every ``sh`` block of README.md and docs/ that needs a container engine
(:mod:`tests.readme_blocks`) and is not one of its ``NOT_RUN`` is run here with
``bash -euo pipefail -c BLOCK``, in a directory prepared as a user would have it, and its
outcome checked. The image build block
runs first (a module fixture), since the others run the image it tags.

With a Docker engine the blocks run on it. Without one (these CI machines) a ``docker`` shim
is put first on ``PATH``: it translates exactly the docker commands these blocks use onto the
buildah stand-in in ``../shared/container`` and refuses anything else with exit status 2, so
that a new docker command in the README or docs/ fails here until it is translated. With
neither, the block tests skip for the reason ``test_container`` gives.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchie_cli import __version__
from tests.conftest import ENGLISH_SYSTEMS, EXAMPLES, GOLD_DIR, REPO
from tests.readme_blocks import Block, blocks, not_run
from tests.test_container import (
    STAND_IN,
    Image,
    built_from_dist_wheel,
    image_config,
    require_engine,
)

pytestmark = pytest.mark.container

CONTAINER_BLOCKS = [b for b in blocks() if b.needs_container and not not_run(b)]

# ------------------------------------------------------------------------------ docker shim

#: ``docker`` for machines without a Docker engine: the subcommands and options the
#: README's and docs/' blocks use, translated onto the buildah stand-in; anything else exits 2. With
#: ``DOCKER_SHIM_DRY_RUN=1`` it prints the command it would run (JSON) instead.
SHIM = r'''#!__PYTHON__
"""docker -> buildah stand-in, for tests/test_readme_container.py only."""
import json
import os
import subprocess
import sys

STAND_IN = __STAND_IN__
LABELS_FORMAT = "{{json .Config.Labels}}"


def refuse(what):
    print(f"docker (test shim): {what}: not translated onto the buildah stand-in; "
          "translate it in tests/test_readme_container.py", file=sys.stderr)
    sys.exit(2)


def parse(argv, flags, valued, interspersed):
    """Docker-style options: (list of (name, value), positionals)."""
    opts, rest, i = [], [], 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i + 1:]
            break
        if not arg.startswith("-") or arg == "-":
            if not interspersed:
                rest += argv[i:]
                break
            rest.append(arg)
            i += 1
            continue
        name, eq, value = arg.partition("=")
        if name in flags and not eq:
            opts.append((name, None))
        elif name in valued:
            if not eq:
                if i + 1 == len(argv):
                    refuse(f"{name} without a value")
                i += 1
                value = argv[i]
            opts.append((name, value))
        else:
            refuse(f"option {arg!r}")
        i += 1
    return opts, rest


def execute(cmd):
    if os.environ.get("DOCKER_SHIM_DRY_RUN") == "1":
        print(json.dumps(cmd))
        sys.exit(0)
    os.execvp(cmd[0], cmd)


def build(argv):
    opts, rest = parse(argv, set(), {"--build-arg", "-t", "--tag", "-f", "--file"}, True)
    if len(rest) != 1:
        refuse(f"build with {len(rest)} build contexts")
    args = []
    for name, value in opts:
        if name == "--build-arg" and "=" not in value:
            if value not in os.environ:  # docker leaves it unset, as does buildah
                continue
            value = f"{value}={os.environ[value]}"
        args += [{"--tag": "-t", "--file": "-f"}.get(name, name), value]
    execute(["buildah", "bud", "--isolation", "chroot", "--network", "host", "--pull-never",
             *args, rest[0]])


def inspect(argv):
    opts, rest = parse(argv, set(), {"--format", "-f", "--type"}, True)
    given = dict(opts)
    if len(rest) != 1 or given.get("--type", "image") != "image":
        refuse("inspect of anything but one image")
    fmt = given.get("--format", given.get("-f"))
    if fmt != LABELS_FORMAT:
        refuse(f"inspect --format {fmt!r} (only {LABELS_FORMAT!r})")
    cmd = ["buildah", "inspect", "--type", "image", rest[0]]
    if os.environ.get("DOCKER_SHIM_DRY_RUN") == "1":
        execute(cmd)
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        sys.exit(1)
    labels = json.loads(res.stdout)["OCIv1"]["config"].get("Labels")
    print(json.dumps(labels, separators=(",", ":"), sort_keys=True))  # as Go's json


def run(argv):
    valued = {"--network", "--net", "--user", "-u", "-v", "--volume", "-e", "--env", "-w",
              "--workdir"}
    opts, rest = parse(argv, {"--rm"}, valued, False)
    if ("--rm", None) not in opts:
        refuse("run without --rm (the stand-in keeps no containers)")
    if not rest:
        refuse("run without an image")
    args = []
    for name, value in opts:
        if name in ("--network", "--net"):
            if value != "none":
                refuse(f"{name} {value}")
            args.append("--no-network")
        elif name in ("--user", "-u"):
            args += ["-u", value]
        elif name in ("-w", "--workdir"):
            args += ["-w", value]
        elif name in ("-e", "--env"):
            if "=" not in value:
                if value not in os.environ:
                    continue
                value = f"{value}={os.environ[value]}"
            args += ["-e", value]
        elif name in ("-v", "--volume"):
            host, _, target = value.partition(":")
            target, _, mode = target.partition(":")
            if not target or mode not in ("", "ro", "rw"):
                refuse(f"volume {value!r}")
            if not host.startswith("/"):
                if not host.startswith("."):
                    refuse(f"named volume {host!r}")
                host = os.path.abspath(host)  # as docker >= 23 does
            args += ["-v", ":".join([host, target] + ([mode] if mode else []))]
    execute([os.path.join(STAND_IN, "image-run"), *args, "--", *rest])


COMMANDS = {"build": build, "inspect": inspect, "run": run}
if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
    refuse(f"docker {' '.join(sys.argv[1:2]) or '(nothing)'}")
COMMANDS[sys.argv[1]](sys.argv[2:])
'''


def write_shim(directory: Path) -> Path:
    """``directory/docker``, the shim; put ``directory`` first on ``PATH`` to use it."""
    directory.mkdir(parents=True, exist_ok=True)
    shim = directory / "docker"
    text = SHIM.replace("__PYTHON__", sys.executable, 1)
    shim.write_text(text.replace("__STAND_IN__", repr(str(STAND_IN)), 1), "utf-8")
    shim.chmod(0o755)
    return shim


def _env(path_first: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "BUILDER"}  # build-image's default
    if path_first is not None:
        env["PATH"] = f"{path_first}{os.pathsep}{env.get('PATH', '')}"
    return env


def _bash(text: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", text],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )


def _tail(res: subprocess.CompletedProcess[str]) -> str:
    return f"exit {res.returncode}\nstdout: {res.stdout[-3000:]}\nstderr: {res.stderr[-3000:]}"


# ------------------------------------------------------------- the README's and docs/' blocks


@dataclass(frozen=True)
class Recipe:
    """How to run one kind of block: the directory it runs in, prepared as a user has it
    (``None``: the repository), and what its outcome must be."""

    prepare: Callable[[Path], Path] | None
    check: Callable[[subprocess.CompletedProcess[str], Path, str], None]


def _kind(block: Block) -> str | None:
    text = block.text
    if "scripts/build-image" in text:
        return "build"
    if "docker run" in text and " validate " in text:
        return "validate"
    if "docker run" in text and " score " in text:
        return "score"
    return None


def _labels(engine: str, tag: str) -> dict[str, str]:
    inspect = (
        ["docker", "image", "inspect", tag]
        if engine == "docker"
        else ["buildah", "inspect", "--type", "image", tag]
    )
    exists = subprocess.run(inspect, capture_output=True, check=False)
    assert exists.returncode == 0, f"no image {tag} after the build block"
    labels: dict[str, str] = image_config(Image(engine, tag))["Labels"]
    return labels


def _check_build(res: subprocess.CompletedProcess[str], cwd: Path, engine: str) -> None:
    assert res.returncode == 0, _tail(res)
    wheels = set()
    for gold in ("1.1.0", "1.0.0"):
        labels = _labels(engine, f"benchie:{__version__}-gold{gold}")
        manifest = (GOLD_DIR / gold / "manifest.json").read_bytes()
        assert labels["org.opencontainers.image.version"] == __version__
        assert labels["io.benchie.gold.version"] == gold
        assert labels["io.benchie.gold.manifest-sha256"] == hashlib.sha256(manifest).hexdigest()
        wheels.add((labels["io.benchie.wheel.file"], labels["io.benchie.wheel.sha256"]))
    # Each build built the wheel anew, byte for byte the same (SOURCE_DATE_EPOCH): both
    # images name the one in dist/.
    assert len(wheels) == 1, wheels
    built_from_dist_wheel(_labels(engine, f"benchie:{__version__}-gold1.1.0"))
    # The block ends with `docker inspect ... --format '{{json .Config.Labels}}'`: its last
    # line of output is the 1.1.0 image's labels, as JSON.
    printed = json.loads(res.stdout.strip().splitlines()[-1])
    assert printed == _labels(engine, f"benchie:{__version__}-gold1.1.0")
    assert printed["io.benchie.gold.version"] == "1.1.0"


def _prepare_validate(work: Path) -> Path:
    shutil.copyfile(EXAMPLES / "en" / "clausie.tsv", work / "my_system.tsv")
    return work


def _check_validate(res: subprocess.CompletedProcess[str], cwd: Path, engine: str) -> None:
    assert res.returncode == 0, _tail(res)
    assert "0 error(s), 0 warning(s) in 1 file(s)" in res.stderr


def _prepare_score(work: Path) -> Path:
    (work / "submissions").mkdir()
    for tsv in sorted((EXAMPLES / "en").glob("*.tsv")):
        shutil.copyfile(tsv, work / "submissions" / tsv.name)
    (work / "results").mkdir()
    return work


def _check_score(res: subprocess.CompletedProcess[str], cwd: Path, engine: str) -> None:
    assert res.returncode == 0, _tail(res)
    out = cwd / "results" / "en.json"
    assert out.stat().st_uid == os.getuid()  # --user: the report is the caller's
    report = json.loads(out.read_bytes())
    assert report["gold"]["version"] == "1.1.0"
    assert report["gold"]["files"][0]["sha256"].startswith("b10e0a527811")
    systems = {s["name"]: s for s in report["systems"]}
    assert sorted(systems) == sorted(ENGLISH_SYSTEMS)
    assert systems["clausie"]["f1"] == 0.33889980353634575


RECIPES = {
    "build": Recipe(None, _check_build),
    "validate": Recipe(_prepare_validate, _check_validate),
    "score": Recipe(_prepare_score, _check_score),
}


@dataclass(frozen=True)
class Docker:
    engine: str  # "docker", or "buildah" behind the shim
    env: dict[str, str]
    builds: dict[str, subprocess.CompletedProcess[str]]  # the build blocks' runs, by PATH:LINE


@pytest.fixture(scope="module")
def docker(tmp_path_factory: pytest.TempPathFactory) -> Docker:
    """The engine, with ``docker`` on PATH (the shim without an engine), after the build
    blocks ran: every other block runs the image they tag."""
    engine = require_engine()
    shim_dir = None
    if engine == "buildah":
        shim_dir = tmp_path_factory.mktemp("docker-shim")
        write_shim(shim_dir)
    env = _env(shim_dir)
    builds = {b.key: _bash(b.text, REPO, env) for b in CONTAINER_BLOCKS if _kind(b) == "build"}
    return Docker(engine, env, builds)


def test_the_readme_has_container_blocks() -> None:
    kinds = [_kind(b) for b in CONTAINER_BLOCKS]
    assert "build" in kinds and "validate" in kinds and "score" in kinds, CONTAINER_BLOCKS


@pytest.mark.parametrize("block", CONTAINER_BLOCKS, ids=lambda b: b.key)
def test_readme_container_block(block: Block, docker: Docker, tmp_path: Path) -> None:
    kind = _kind(block)
    assert kind is not None, (
        f"{block}: no recipe in tests/test_readme_container.py says where this block runs "
        "and what it must do: add one (or list it in readme_blocks.NOT_RUN, with the reason)"
    )
    recipe = RECIPES[kind]
    if kind == "build":
        cwd, res = REPO, docker.builds[block.key]
    else:
        failed = [key for key, r in docker.builds.items() if r.returncode != 0]
        assert not failed, f"the image build block ({', '.join(failed)}) failed"
        assert recipe.prepare is not None
        work = tmp_path / "work"
        work.mkdir(mode=0o755)  # a user's directory: readable by the image's uid 10001
        cwd = recipe.prepare(work)
        res = _bash(block.text, cwd, docker.env)
    recipe.check(res, cwd, docker.engine)


# --------------------------------------------------------------------- the shim on its own
# These need no engine: the shim is checked in dry-run mode or refuses before running one.


@pytest.fixture
def shim(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    write_shim(tmp_path / "bin")
    env = _env(tmp_path / "bin") | {"DOCKER_SHIM_DRY_RUN": "1"}

    def call(*args: str, cwd: Path = tmp_path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["docker", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
        )

    return call


@pytest.mark.parametrize(
    "args",
    [
        ("ps",),
        (),
        ("image", "inspect", "benchie"),
        ("run", "benchie", "gold", "verify"),  # no --rm
        ("run", "--rm", "--network", "host", "benchie"),
        ("run", "--rm", "--privileged", "benchie"),
        ("run", "--rm", "-v", "data:/data", "benchie"),  # a named volume
        ("run", "--rm", "-v", "/x:/data:z", "benchie"),
        ("inspect", "benchie"),
        ("inspect", "benchie", "--format", "{{json .Config}}"),
        ("build", "--no-cache", "-t", "benchie", "."),
        ("build", "-t", "benchie"),
    ],
    ids=lambda a: " ".join(a) or "nothing",
)
def test_shim_refuses_what_it_does_not_translate(shim, args: tuple[str, ...]) -> None:
    res = shim(*args)
    assert res.returncode == 2, res.stdout
    assert "docker (test shim):" in res.stderr and "not translated" in res.stderr
    assert res.stdout == ""


def test_shim_translates_the_readme_commands(shim, tmp_path: Path) -> None:
    run = shim(
        "run", "--rm", "--network", "none", "--user", "1000:1000", "-v", f"{tmp_path}:/data",
        "-v", "./in:/in:ro", "benchie:1", "score", "-o", "-x",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [
        str(STAND_IN / "image-run"),
        "--no-network",
        "-u",
        "1000:1000",
        "-v",
        f"{tmp_path}:/data",
        "-v",
        f"{tmp_path}/in:/in:ro",
        "--",
        "benchie:1",
        "score",
        "-o",
        "-x",
    ]
    build = shim("build", "--build-arg", "A=1", "-t", "b:1", "--tag", "b:2", ".", "-f", "D")
    assert build.returncode == 0, build.stderr
    assert json.loads(build.stdout) == [
        "buildah", "bud", "--isolation", "chroot", "--network", "host", "--pull-never",
        "--build-arg", "A=1", "-t", "b:1", "-t", "b:2", "-f", "D", ".",
    ]  # fmt: skip
    inspect = shim("inspect", "b:1", "--format", "{{json .Config.Labels}}")
    assert inspect.returncode == 0, inspect.stderr
    assert json.loads(inspect.stdout) == ["buildah", "inspect", "--type", "image", "b:1"]
