"""The container image, built from the project's real Dockerfile and run as users run it.

``scripts/build-image`` builds the wheel into ``dist/`` and the image from that wheel: the
tests check that the image holds that very wheel (its labels, and pip's record of the
install), that its gold is the wheel's, and that an organiser's private gold gets in beside it.

Run by ``tox -e container`` (``pytest -m container``). It needs a Docker engine or, on
machines without one (these CI machines), the buildah stand-in in ``../shared/container``;
with neither it skips and says why. Every command runs without network, as the image must.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest

from benchie_cli import DEFAULT_GOLD_VERSION, __version__
from benchie_cli.gold.shipped import shipped_versions
from tests.conftest import ENGLISH_SYSTEMS, GOLD_DIR, REPO

pytestmark = pytest.mark.container

STAND_IN = REPO.parent / "shared" / "container"
EXAMPLES = REPO / "examples" / "submissions"
DIST = REPO / "dist"
#: Where the image's Python keeps the installed wheel (the base image's Python, 3.11).
SITE_PACKAGES = "/opt/benchie/lib/python3.11/site-packages"
#: The image's own user data store: the private gold, if any ($BENCHIE_DATA_DIR/gold).
IMAGE_DATA_GOLD = "/opt/benchie/data/gold"


@dataclass(frozen=True)
class Image:
    engine: str  # "docker" or "buildah"
    tag: str


def _engine() -> tuple[str | None, str]:
    if shutil.which("docker"):
        info = subprocess.run(["docker", "info"], capture_output=True, check=False)
        if info.returncode == 0:
            return "docker", ""
    if (STAND_IN / "build-base-image").is_file():
        if os.geteuid() != 0:
            return None, f"{STAND_IN} needs root (buildah, debootstrap)"
        return "buildah", ""
    return None, (
        "no Docker engine answers (`docker info` failed or docker is absent) and the buildah "
        f"stand-in {STAND_IN} is not here: the container image cannot be built on this machine"
    )


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload,no-any-return]


def require_engine() -> str:
    """The engine to build and run images with, ``docker`` or ``buildah`` (then with the
    stand-in's base image built); skips the calling test, saying why, when there is none.
    Shared with ``test_readme_container``."""
    engine, why = _engine()
    if engine is None:
        pytest.skip(why)
    if engine == "buildah":
        base = _run([str(STAND_IN / "build-base-image")])
        assert base.returncode == 0, base.stdout + base.stderr
    return engine


@pytest.fixture(scope="module")
def image() -> Image:
    engine = require_engine()
    build = _run([str(REPO / "scripts" / "build-image"), "--builder", engine], cwd=REPO)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    tag = build.stdout.strip().splitlines()[-1]
    assert tag == f"benchie:{__version__}-gold{DEFAULT_GOLD_VERSION}"
    return Image(engine, tag)


def run_image(
    image: Image, *args: str, mounts: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """``docker run --rm --network none [-v ...] IMAGE ARGS`` or its stand-in, with no
    network either way (a fresh network namespace has no interface but loopback)."""
    volumes = [arg for m in mounts for arg in ("-v", m)]
    if image.engine == "docker":
        return _run(["docker", "run", "--rm", "--network", "none", *volumes, image.tag, *args])
    return _run(["unshare", "--net", str(STAND_IN / "image-run"), *volumes, image.tag, *args])


def image_config(image: Image) -> dict:
    if image.engine == "docker":
        out = _run(["docker", "image", "inspect", image.tag])
        return json.loads(out.stdout)[0]["Config"]
    out = _run(["buildah", "inspect", "--type", "image", image.tag])
    return json.loads(out.stdout)["OCIv1"]["config"]


def image_files(image: Image, tmp_path: Path) -> list[str]:
    """Every path in the image's filesystem."""
    if image.engine == "docker":
        cid = _run(["docker", "create", image.tag]).stdout.strip()
        try:
            tar = subprocess.run(["docker", "export", cid], capture_output=True, check=True).stdout
        finally:
            _run(["docker", "rm", cid])
        listing = subprocess.run(["tar", "-t"], input=tar, capture_output=True, check=True)
        return ["/" + p.lstrip("./").rstrip("/") for p in listing.stdout.decode().splitlines()]
    ctr = _run(["buildah", "from", "--pull-never", image.tag]).stdout.strip()
    try:
        root = Path(_run(["buildah", "mount", ctr]).stdout.strip())
        return ["/" + str(p.relative_to(root)) for p in root.rglob("*")]
    finally:
        _run(["buildah", "umount", ctr])
        _run(["buildah", "rm", ctr])


def read_image_file(image: Image, path: str) -> bytes:
    """The bytes of the file ``path`` in the image."""
    if image.engine == "docker":
        cid = _run(["docker", "create", image.tag]).stdout.strip()
        try:
            tar = subprocess.run(
                ["docker", "cp", f"{cid}:{path}", "-"], capture_output=True, check=True
            ).stdout
        finally:
            _run(["docker", "rm", cid])
        with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
            member = archive.extractfile(archive.getmembers()[0])
            assert member is not None, f"{path} is not a file in {image.tag}"
            return member.read()
    ctr = _run(["buildah", "from", "--pull-never", image.tag]).stdout.strip()
    try:
        root = Path(_run(["buildah", "mount", ctr]).stdout.strip())
        return (root / path.lstrip("/")).read_bytes()
    finally:
        _run(["buildah", "umount", ctr])
        _run(["buildah", "rm", ctr])


def build_context(
    engine: str, context: Path, tag: str, *args: str
) -> subprocess.CompletedProcess[str]:
    """``docker build`` (or ``buildah bud``) of ``context`` with ``args``, tagged ``tag``,
    as scripts/build-image runs it; no intermediate container is left, even on failure
    (buildah without --layers keeps none)."""
    if engine == "docker":
        return _run(["docker", "build", "--force-rm", *args, "-t", tag, str(context)])
    return _run(
        ["buildah", "bud", "--isolation", "chroot", "--network", "host", "--pull-never",
         *args, "-t", tag, str(context)]
    )  # fmt: skip


def remove_image(engine: str, tag: str) -> None:
    _run([engine if engine == "docker" else "buildah", "rmi", tag])


def built_from_dist_wheel(labels: dict[str, str]) -> Path:
    """The wheel in dist/ the labels name, checked: the image's wheel file name is this
    version's and the sha256 the labels give is that file's. Shared with the README's and
    the Codabench image's tests."""
    name = labels["io.benchie.wheel.file"]
    assert name.startswith(f"benchie_cli-{__version__}-") and name.endswith(".whl"), name
    wheel = DIST / name
    assert wheel.is_file(), f"the image's wheel {name} is not in {DIST}"
    assert labels["io.benchie.wheel.sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()
    return wheel


def host_manifest(version: str) -> dict:
    return orjson.loads((GOLD_DIR / version / "manifest.json").read_bytes())


def test_gold_verify_in_the_image(image: Image) -> None:
    res = run_image(image, "gold", "verify")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == [
        "1.0.0: released, shipped with benchie-cli, 4 file(s)",
        "1.1.0: released, shipped with benchie-cli, 4 file(s)",
        "carb 1.0.0: released, shipped with benchie-cli, 4 file(s)",
        "oie2016 1.0.0: released, shipped with benchie-cli, 4 file(s)",
        "oie2016 2.0.0: released, shipped with benchie-cli, 4 file(s)",
        "oie2016-2018 1.0.0: released, shipped with benchie-cli, 1 file(s)",
        "ok: 21 file(s) in 6 version(s) of 4 benchmark(s) match their manifests",
    ]


def test_validate_in_the_image(image: Image) -> None:
    res = run_image(
        image,
        "validate",
        "--lang",
        "en",
        "/data/in/en/clausie.tsv",
        mounts=(f"{EXAMPLES}:/data/in:ro",),
    )
    assert res.returncode == 0, res.stderr
    assert "0 error(s), 0 warning(s) in 1 file(s)" in res.stderr


def test_score_in_the_image_matches_the_host(image: Image, tmp_path: Path, cli) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out_dir.chmod(0o777)  # the image runs as uid 10001, not as the caller
    res = run_image(
        image,
        "score",
        "--lang",
        "en",
        "/data/in/en/",
        "-o",
        "/data/out/report.json",
        mounts=(f"{EXAMPLES}:/data/in:ro", f"{out_dir}:/data/out"),
    )
    assert res.returncode == 0, res.stderr
    report_path = out_dir / "report.json"
    assert report_path.stat().st_mode & 0o044 == 0o044  # readable by the caller's group and others
    report = orjson.loads(report_path.read_bytes())
    # The report's gold hash is the manifest's, as `benchie gold info` shows it outside.
    info = orjson.loads(
        cli("gold", "info", "--gold-version", DEFAULT_GOLD_VERSION, "--format", "json").stdout
    )
    en = next(f for f in info["files"] if f["language"] == "en" and f["facet"] == "default")
    assert report["gold"]["version"] == DEFAULT_GOLD_VERSION
    assert report["gold"]["files"][0]["sha256"] == en["sha256"]
    # And the numbers are the host's.
    host_out = tmp_path / "host.json"
    cli("score", "--lang", "en", str(EXAMPLES / "en"), "-o", host_out)
    host = orjson.loads(host_out.read_bytes())
    assert report["signature"] == host["signature"]
    strip = lambda r: [{k: v for k, v in s.items() if k != "file"} for s in r["systems"]]  # noqa: E731
    assert strip(report) == strip(host)
    assert sorted(s["name"] for s in report["systems"]) == sorted(ENGLISH_SYSTEMS)


def test_gold_can_be_pinned_in_the_image(image: Image) -> None:
    sha = next(
        f["sha256"] for f in host_manifest("1.0.0")["files"] if f["path"].startswith("en/default/")
    )
    mounts = (f"{EXAMPLES}:/data/in:ro",)
    ok = run_image(
        image,
        "score",
        "--gold-version",
        "1.0.0",
        "--expect-gold",
        sha,
        "--format",
        "json",
        "/data/in/en/clausie.tsv",
        mounts=mounts,
    )
    assert ok.returncode == 0, ok.stderr
    assert orjson.loads(ok.stdout)["systems"][0]["precision"] == 0.5029154518950437
    wrong = run_image(
        image,
        "score",
        "--gold-version",
        "1.1.0",
        "--expect-gold",
        sha,
        "/data/in/en/clausie.tsv",
        mounts=mounts,
    )
    assert wrong.returncode == 1 and "not the expected" in wrong.stderr


def test_image_metadata(image: Image) -> None:
    config = image_config(image)
    assert config["User"] == "10001:10001"
    assert config["Entrypoint"] == ["benchie"]
    assert config["WorkingDir"] == "/data"
    labels = config["Labels"]
    assert labels["org.opencontainers.image.version"] == __version__
    assert labels["io.benchie.gold.version"] == DEFAULT_GOLD_VERSION
    manifest = GOLD_DIR / DEFAULT_GOLD_VERSION / "manifest.json"
    assert (
        labels["io.benchie.gold.manifest-sha256"]
        == hashlib.sha256(manifest.read_bytes()).hexdigest()
    )
    head = _run(["git", "rev-parse", "HEAD"], cwd=REPO)
    if head.returncode == 0:
        assert labels["org.opencontainers.image.revision"] == head.stdout.strip()
    built_from_dist_wheel(labels)


def test_the_image_holds_the_wheel_it_names(image: Image) -> None:
    """pip's record of the install: the package came from the wheel of the label's sha256
    (direct_url.json), and every file of the wheel is installed with the wheel's own hash."""
    labels = image_config(image)["Labels"]
    wheel = built_from_dist_wheel(labels)
    dist_info = f"{SITE_PACKAGES}/benchie_cli-{__version__}.dist-info"
    direct_url = json.loads(read_image_file(image, f"{dist_info}/direct_url.json"))
    # PEP 610: "hashes" since pip 23.1 or so; the older "hash" is "sha256=<hex>".
    archive = direct_url["archive_info"]
    recorded = archive["hashes"]["sha256"] if "hashes" in archive else archive["hash"]
    assert recorded.removeprefix("sha256=") == labels["io.benchie.wheel.sha256"]
    assert direct_url["url"].endswith("/" + wheel.name)
    with zipfile.ZipFile(wheel) as zf:
        wheel_record = zf.read(f"benchie_cli-{__version__}.dist-info/RECORD").decode()
    installed = set(read_image_file(image, f"{dist_info}/RECORD").decode().splitlines())
    expected = [ln for ln in wheel_record.splitlines() if ln and "/RECORD," not in ln]
    assert "benchie_cli/data/gold/1.1.0/manifest.json" in {ln.split(",")[0] for ln in expected}
    assert [ln for ln in expected if ln not in installed] == []


def test_the_gold_is_the_installed_wheels(image: Image) -> None:
    """`gold path --all`: the image's stores are its own user data store (empty: this
    repository has no private gold) and the installed package's, holding every shipped
    version; nothing else (no checkout, no copy of the gold beside the package)."""
    res = run_image(image, "gold", "path", "--all", "--format", "json")
    assert res.returncode == 0, res.stderr
    stores = orjson.loads(res.stdout)["stores"]
    assert [(s["store"], s["path"], s["exists"]) for s in stores] == [
        ("user data", IMAGE_DATA_GOLD, True),
        ("installed package", f"{SITE_PACKAGES}/benchie_cli/data/gold", True),
    ]
    assert stores[0]["holds"] == []
    assert [(h["gold"], h["version"], h["shadowed"]) for h in stores[1]["holds"]] == [
        (v.benchmark, v.version, False) for v in shipped_versions()
    ]


def test_final_stage_has_no_dvc_git_or_compilers(image: Image, tmp_path: Path) -> None:
    files = image_files(image, tmp_path)
    assert any(p.endswith("/bin/benchie") for p in files)  # the listing is real
    assert f"{SITE_PACKAGES}/benchie_cli/data/gold/1.0.0/manifest.json" in files
    assert not any(p.startswith("/opt/benchie/share") for p in files)  # no second copy
    assert not any(p.startswith(f"{IMAGE_DATA_GOLD}/") for p in files)  # no private gold
    assert not any(p.startswith(("/src", "/tmp/wheel")) for p in files)  # build leftovers
    # The predicate itself catches what the build stage has (it is not vacuous).
    assert _forbidden("/opt/dvc/bin/dvc") and _forbidden("/usr/bin/git")
    assert _forbidden("/opt/dvc/lib/python3.11/site-packages/dvc/__init__.py")
    forbidden = [p for p in files if _forbidden(p)]
    assert forbidden == []


def _forbidden(path: str) -> bool:
    """dvc, git or a compiler: build tools that must stay in the build stage."""
    directory, _, name = path.rpartition("/")
    return (
        "/site-packages/dvc" in path
        or (directory.endswith("/bin") and name in {"dvc", "git", "gcc", "cc", "c++", "g++"})
        or name == "cc1"
        or "/.git/" in path
    )


@pytest.mark.parametrize("wrong", ["no wheel", "another sha256"])
def test_the_build_refuses_a_wheel_it_cannot_name(image: Image, wrong: str) -> None:
    """Without WHEEL and WHEEL_SHA256, or with a sha256 that is not the wheel's, the build
    stops, saying why, before anything is installed: the label never names another wheel."""
    wheel = built_from_dist_wheel(image_config(image)["Labels"])
    args: list[str] = []
    if wrong == "another sha256":
        args = ["--build-arg", f"WHEEL={wheel.name}", "--build-arg", f"WHEEL_SHA256={'0' * 64}"]
    tag = f"benchie-test-refused:{os.getpid()}"
    try:
        res = build_context(image.engine, REPO, tag, *args)
    finally:
        remove_image(image.engine, tag)
    assert res.returncode != 0
    said = res.stdout + res.stderr
    if wrong == "no wheel":
        assert "benchie image: no wheel given. Build with scripts/build-image" in said
    else:
        assert f"benchie image: dist/{wheel.name} does not have the sha256" in said


def test_private_gold_goes_into_the_image(image: Image, tmp_path: Path) -> None:
    """An organiser's fork with private test gold (docs/container.md, "Private test gold"):
    a version gold.dvc tracks that the wheel does not ship is pulled with dvc in the build
    stage (here from the embedded remote; a private remote's credentials are build
    arguments) into the image's own store, and read there beside the wheel's gold; the
    shipped versions are not pulled again, and dvc stays in the build stage."""
    dvc = shutil.which("dvc", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    if dvc is None or shutil.which("git") is None:
        pytest.skip("needs dvc (the package's dvc extra) and git to make a fork's private gold")
    wheel = built_from_dist_wheel(image_config(image)["Labels"])
    # The fork: the build context of this repository, and a git repository for gold new.
    fork = tmp_path / "fork"
    (fork / "dist").mkdir(parents=True)
    shutil.copyfile(wheel, fork / "dist" / wheel.name)
    for name in ("Dockerfile", ".dockerignore", "gold.dvc", ".dvc/config", "gold/.gitignore"):
        (fork / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / name, fork / name)
    shutil.copytree(REPO / "dvc-store", fork / "dvc-store")
    assert _run(["git", "init", "-q"], cwd=fork).returncode == 0
    test_gold = tmp_path / "test-gold" / "en" / "default"
    test_gold.mkdir(parents=True)
    english = GOLD_DIR / "1.1.0" / "en" / "default" / "benchie_gold_annotations_en.txt"
    shutil.copyfile(english, test_gold / "test_gold.txt")
    env = {k: v for k, v in os.environ.items() if k != "BENCHIE_GOLD_DIR"}
    env["PATH"] = f"{Path(dvc).parent}{os.pathsep}{env['PATH']}"
    new = _run(
        [sys.executable, "-m", "benchie_cli", "gold", "new", "2.0.0", "--from",
         str(test_gold.parent.parent), "--gold-dir", str(fork / "gold"), "--description",
         "ACME shared task test gold", "--license", "private"],
        cwd=fork, env=env,
    )  # fmt: skip
    assert new.returncode == 0, new.stderr
    assert "path: gold/2.0.0" in (fork / "gold.dvc").read_text("utf-8")
    push = _run([dvc, "push", "-q", "gold/2.0.0"], cwd=fork, env=env)
    assert push.returncode == 0, push.stderr
    manifest = (fork / "gold" / "2.0.0" / "manifest.json").read_bytes()

    tag = f"benchie-test-private:{os.getpid()}"
    build = build_context(
        image.engine, fork, tag,
        "--build-arg", f"WHEEL={wheel.name}",
        "--build-arg", f"WHEEL_SHA256={hashlib.sha256(wheel.read_bytes()).hexdigest()}",
        "--build-arg", "GOLD_VERSION=2.0.0",
        "--build-arg", f"GOLD_SHA256={hashlib.sha256(manifest).hexdigest()}",
    )  # fmt: skip
    try:
        assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
        said = build.stdout + build.stderr  # the RUN's output: stdout, or BuildKit's stderr
        assert "benchie image: gold not in the wheel, from gold.dvc: gold/2.0.0\n" in said
        private = Image(image.engine, tag)
        verify = run_image(private, "gold", "verify")
        assert verify.returncode == 0, verify.stderr
        assert "2.0.0: released, 1 file(s)" in verify.stdout.splitlines()
        assert "ok: 22 file(s) in 7 version(s) of 4 benchmark(s)" in verify.stdout
        stores = orjson.loads(
            run_image(private, "gold", "path", "--all", "--format", "json").stdout
        )
        held = [[(h["gold"], h["version"]) for h in s["holds"]] for s in stores["stores"]]
        assert held == [
            [("benchie", "2.0.0")],
            [(v.benchmark, v.version) for v in shipped_versions()],
        ]
        score = run_image(
            private, "score", "--lang", "en", "--format", "json", "/data/in/en/clausie.tsv",
            mounts=(f"{EXAMPLES}:/data/in:ro",),
        )  # fmt: skip
        assert score.returncode == 0, score.stderr
        report = orjson.loads(score.stdout)
        assert report["gold"]["version"] == "2.0.0"  # the image's default, as labelled
        assert report["systems"][0]["f1"] == 0.33889980353634575  # 1.1.0's English gold
        files = image_files(private, tmp_path)
        assert sorted(p for p in files if p.startswith(f"{IMAGE_DATA_GOLD}/")) == [
            f"{IMAGE_DATA_GOLD}/2.0.0",
            f"{IMAGE_DATA_GOLD}/2.0.0/en",
            f"{IMAGE_DATA_GOLD}/2.0.0/en/default",
            f"{IMAGE_DATA_GOLD}/2.0.0/en/default/test_gold.txt",
            f"{IMAGE_DATA_GOLD}/2.0.0/manifest.json",
        ]
        assert [p for p in files if _forbidden(p)] == []  # dvc ran in the build stage only
    finally:
        remove_image(image.engine, tag)


def test_build_image_refuses_a_wheel_it_cannot_use(tmp_path: Path) -> None:
    """scripts/build-image --wheel FILE: a file that is not there, or a wheel of another
    version than the checkout's (whose Dockerfile builds the image), is refused before any
    build, exit 2. Needs no engine."""
    other = tmp_path / "benchie_cli-0.0.1-py3-none-any.whl"
    other.write_bytes(b"PK")
    for wheel, says in (
        (tmp_path / "nothing-here.whl", "nothing-here.whl: no such file"),
        (other, f"not a wheel of benchie-cli {__version__}, this checkout's version"),
    ):
        res = _run([str(REPO / "scripts" / "build-image"), "--wheel", str(wheel)], cwd=REPO)
        assert res.returncode == 2, res.stdout + res.stderr
        assert says in res.stderr and res.stdout == ""
