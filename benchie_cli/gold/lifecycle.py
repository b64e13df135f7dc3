"""Adding and releasing gold versions: what an organiser does once per shared-task edition.

``gold new`` turns a directory of annotation files into a new version of the store in one
step that either completes or leaves the store as it was: the files are copied into a
temporary directory inside the store, validated there (so the bytes checked are the bytes
kept), given a manifest, and renamed into place; then DVC tracks the version as an output
of its own in ``gold.dvc`` (optionally on a remote of its own, such as a private one), every
other output of that file untouched. A draft (``--draft``) may be corrected and its
manifest refreshed with ``gold manifest``; ``gold release`` freezes it. A released version
never changes: corrections are a new version.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from benchie_cli import LANGUAGES
from benchie_cli.errors import BenchieError, Diagnostic, ExitCode, printable_path
from benchie_cli.gold import dvcfile
from benchie_cli.gold.dvcfile import GOLD_DVC
from benchie_cli.gold.store import (
    MANIFEST,
    GoldStore,
    Manifest,
    build_manifest,
    dvc_remote_of,
    in_gold_store,
    is_released,
    is_version,
    manifest_bytes,
    tracked_versions,
    write_manifest,
)
from benchie_cli.registry import BENCHMARKS, DEFAULT_BENCHMARK, FILE_FACETS
from benchie_cli.textio import atomic_write, display_name, read_whole

_REMOTE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
#: A new version's number: ASCII digits without leading zeros, nothing after the patch
#: (``is_version`` also takes ``01.0.0``, which sorts as 1.0.0, other scripts' digits, and a
#: trailing newline, which would become part of the directory's name).
_NEW_VERSION = re.compile(r"(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)")
_REMOTE_URL_KEY = re.compile(r"^remote\.(.+)\.url=")
#: Modes of a new version's directories and files, whatever the umask: a store is read by
#: other users (a container image's, a shared checkout's).
_DIR_MODE, _FILE_MODE = 0o755, 0o644


@dataclass(frozen=True, slots=True)
class Added:
    """What ``gold new`` or ``gold release`` did, for the CLI to report."""

    version: str
    path: Path
    manifest: Manifest
    #: Warnings of the validation (errors stop the command before anything is written).
    warnings: tuple[Diagnostic, ...]
    #: The DVC file written (``gold.dvc``), or None with the reason in ``dvc_note``.
    dvc_file: Path | None
    dvc_note: str
    remote: str | None

    @property
    def manifest_sha256(self) -> str:
        """The sha256 of the manifest as written: the bytes are a function of it."""
        return hashlib.sha256(manifest_bytes(self.manifest)).hexdigest()


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP until the block ends, where they are handled as
    usual: for the steps that must not stop half-way (removing a temporary version, the
    ``dvc add`` and the rewrite of gold.dvc that follows it). A child process
    (dvc, git) starts with them unblocked and still gets a Ctrl-C from the terminal."""
    stops = {getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)}
    mask = getattr(signal, "pthread_sigmask", None)
    previous = mask(signal.SIG_BLOCK, stops) if mask is not None else None
    try:
        yield
    finally:
        if mask is not None and previous is not None:
            mask(signal.SIG_SETMASK, previous)


def check_store_root(store_root: Path) -> None:
    """A store is a directory of versions, not a version nor a directory inside one (or
    inside anything DVC tracks, an output of gold.dvc too): ``gold new --gold-dir
    gold/1.1.0`` would otherwise write into a released version, and ``dvc add`` re-add its
    parent."""
    outputs = set(dvcfile.tracked_paths(store_root))
    gold_dvc = dvcfile.find(store_root)  # gold/ beside gold.dvc: named alike, not tracked
    for directory in (store_root.resolve(), *store_root.resolve().parents):
        own = Path(f"{directory}.dvc")
        tracked = (os.path.lexists(own) and own != gold_dvc) or directory in outputs
        if (directory / MANIFEST).is_file() or tracked:
            what = "a gold version" if (directory / MANIFEST).is_file() else "tracked by DVC"
            raise BenchieError(
                f"--gold-dir {printable_path(str(store_root))} is not a gold store: "
                f"{printable_path(str(directory))} is {what}; give the directory that holds "
                "the versions"
            )
    resolved = store_root.resolve()  # and neither DVC's copy of gold nor one benchmark's part
    data = [d for d in dvcfile.data_directories(resolved) if d == resolved or d in resolved.parents]
    inside = data[0] if data else in_gold_store(resolved / "new")  # (a store holds versions)
    if inside is not None and (data or inside != resolved):
        raise BenchieError(
            f"--gold-dir {printable_path(str(store_root))} is not a gold store: "
            f"{printable_path(str(inside))} is a gold version, a gold store or DVC's copy of "
            "one; give the directory that holds the versions"
        )
    parent = GoldStore(resolved.parent)
    part = next((b for b in BENCHMARKS.values() if b.store_dir == resolved.name), None)
    if part is not None and part.store_dir and parent.versions():
        raise BenchieError(
            f"--gold-dir {printable_path(str(store_root))} is {part.label}'s part of the gold "
            f"store {printable_path(str(resolved.parent))}, not a store of BenchIE's gold: "
            "give the store itself"
        )


def _remove_stale_temporaries(store_root: Path) -> None:
    """``.new-*`` directories of runs killed (SIGKILL, power loss) more than an hour ago."""
    cutoff = time.time() - 3600
    for path in store_root.glob(".new-*"):
        try:
            if path.is_dir() and not path.is_symlink() and path.stat().st_mtime < cutoff:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue


def dvc_command() -> str | None:
    """The ``dvc`` beside this Python (a venv with the ``dvc`` extra), else on ``$PATH``."""
    beside = Path(sys.executable).parent / "dvc"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("dvc")


def dvc_repo_of(store_root: Path) -> Path | None:
    """The DVC repository (a directory with ``.dvc/``) that contains the store, if any: the
    store itself when it is the repository's root (a repository of private gold only)."""
    resolved = store_root.resolve()
    for parent in (resolved, *resolved.parents):
        if (parent / ".dvc").is_dir():
            return parent
    return None


def _run_dvc(dvc: str, repo: Path, *args: str) -> str:
    """Run dvc in ``repo``; its own message, one line, on failure."""
    try:
        proc = subprocess.run(
            [dvc, *args], cwd=repo, capture_output=True, text=True, check=False, timeout=600
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BenchieError(f"`dvc {' '.join(args)}` could not run: {exc}") from None
    if proc.returncode != 0:
        lines = [ln for ln in (proc.stderr + proc.stdout).splitlines() if ln.strip()]
        said = next((ln for ln in lines if ln.startswith("ERROR")), lines[-1] if lines else "")
        raise BenchieError(f"`dvc {' '.join(args)}` failed: {said.strip()}")
    return proc.stdout


def _check_remote(remote: str | None, use_dvc: bool, store_root: Path) -> tuple[str, Path] | None:
    """Before anything is written: the dvc command and repository to track with, if any,
    a ``--remote`` that DVC knows (a typo would otherwise surface only at push), and a
    gold.dvc that can be rewritten."""
    if remote is not None and not _REMOTE_NAME.match(remote):
        raise BenchieError(f"--remote {remote!r} is not a DVC remote name")
    if not use_dvc:
        if remote is not None:
            raise BenchieError("--remote names the DVC remote of the version: not with --no-dvc")
        return None
    dvc, repo = dvc_command(), dvc_repo_of(store_root)
    if dvc is None and repo is not None:  # the gold would sit untracked, one `git add .` away
        raise BenchieError(
            "the store is in a DVC repository but DVC is not installed: install it "
            "(`pip install -e '.[dvc]'` in the checkout), or pass --no-dvc and keep the "
            "version out of git yourself"
        )
    if dvc is None or repo is None:
        if remote is not None:
            raise BenchieError(f"--remote {remote!r}: the store is in no DVC repository")
        return None
    if remote is not None:
        known = _dvc_remotes(dvc, repo)
        if remote not in known:
            raise BenchieError(
                f"--remote {remote!r}: DVC has no such remote (known: "
                f"{', '.join(known) or 'none'}); add it first with `dvc remote add {remote} URL`"
            )
    dvcfile.load(dvcfile.find(store_root) or repo / GOLD_DVC)  # one it could not rewrite
    return dvc, repo


def _dvc_remotes(dvc: str, repo: Path) -> list[str]:
    """The remotes DVC knows in ``repo`` (every config level), from ``remote.NAME.url``
    of ``dvc config --list``: ``dvc remote list`` wraps long URLs onto lines of their own,
    whose pieces would pass for remote names (and ``(default)`` with them)."""
    listed = _run_dvc(dvc, repo, "config", "--list").splitlines()
    found = (_REMOTE_URL_KEY.match(line) for line in listed)
    return sorted({m.group(1) for m in found if m})


def _track(
    tracking: tuple[str, Path] | None,
    store_root: Path,
    version: str,
    remote: str | None,
    use_dvc: bool,
) -> tuple[Path | None, str]:
    """Track the version as its output of gold.dvc, added or updated in place, naming
    ``remote`` (else the remote its output named before, if any) so that ``dvc push`` and
    ``dvc pull`` use that remote for this version only. Every other output of gold.dvc is
    left as it was, and the file is written atomically.

    DVC has no command that adds one output to a file of several, and ``dvc commit`` of
    one output saves them all (and fails on a version not pulled here). So ``dvc add``
    tracks the version in a file of its own, ``<version>.dvc`` beside it (an output
    gold.dvc already has is taken out first: ``dvc add`` would otherwise rewrite gold.dvc
    in place), the one output of that file goes into gold.dvc with its path made relative
    to it, and the file is removed."""
    version_dir = store_root.resolve() / version
    shown_dir = printable_path(str(store_root / version))
    if tracking is None:
        if not use_dvc:
            why = "--no-dvc"
        elif dvc_command() is None:
            why = "DVC is not installed"
        else:
            why = "the store is in no DVC repository"
        tracked_in = dvcfile.find(store_root)
        if tracked_in is not None and version in tracked_versions(store_root):
            return None, (
                f"not tracked by DVC ({why}), and its output in "
                f"{display_name(str(tracked_in))} is now stale: run `dvc add {shown_dir}`"
            )
        return None, f"not tracked by DVC ({why}); track it with `dvc add` where you keep it"
    dvc, repo = tracking
    dvc_file = dvcfile.find(store_root) or repo / GOLD_DVC
    shown = display_name(str(dvc_file))
    out_path = os.path.relpath(version_dir, dvc_file.parent.resolve())
    single = version_dir.parent / f"{version}.dvc"
    with _locked(repo):  # read, changed and written whole: one run at a time
        before = dvcfile.load(dvc_file)
        at = before.position(out_path)
        old = None if at is None else before.outs[at]
        if remote is None and old is not None:
            remote = old.remote
        added = False
        try:
            if old is not None:
                _write_dvc_file(dvc_file, before.without(out_path))
            try:
                _run_dvc(dvc, repo, "add", os.path.relpath(version_dir, repo))
                added = True
                fresh = _single_output(single, version)
            except BenchieError:
                if old is not None:
                    _write_dvc_file(dvc_file, before)
                raise
            entry = fresh.with_key("path", _yaml_path(out_path)).with_key("remote", remote)
            _write_dvc_file(
                dvc_file, before.with_output(entry if old is None else entry.keeping(old))
            )
            single.unlink(missing_ok=True)
        except (BenchieError, OSError) as exc:
            if added:  # the version's own file is no record anyone reads: gold.dvc is
                with contextlib.suppress(OSError):
                    single.unlink(missing_ok=True)
            # The version is in place: say so, or the user would believe nothing was written.
            # Said at once: a Ctrl-C that killed dvc is handled (exit 130) right after this
            # block, and would drop the error on its way out.
            fix = (
                f"run `dvc add {shown_dir}` (it updates the version's output in {shown})"
                if old is not None
                else "remove it to start again"
            )
            sys.stderr.write(
                f"benchie: gold {version} was written to {shown_dir} but is not tracked by DVC "
                f"in {shown}: {fix}\n"
            )
            message = exc.message if isinstance(exc, BenchieError) else str(exc)
            raise BenchieError(message) from None
    try:
        _restage(dvc, repo, dvc_file, single)
    except BenchieError as exc:
        raise BenchieError(
            f"gold {version} is tracked by DVC in {shown}, but staging it failed "
            f"({exc.message}): run `git add {shown}`"
        ) from None
    return dvc_file, f"tracked by DVC in {shown}"


@contextlib.contextmanager
def _locked(repo: Path) -> Iterator[None]:
    """gold.dvc is read, changed and written whole: two runs at once (two ``gold new``)
    take turns, or the later write would drop the earlier's output. The lock file is in
    DVC's own temporary directory, which DVC keeps out of git."""
    try:
        import fcntl
    except ImportError:  # (not POSIX)
        yield
        return
    directory = repo / ".dvc" / "tmp"
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / "benchie-gold-dvc.lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def _yaml_path(path: str) -> str:
    """A path as a YAML scalar: plain when it can be, else single-quoted."""
    if re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_./-]*", path):
        return path
    return "'" + path.replace("'", "''") + "'"


def _single_output(single: Path, version: str) -> dvcfile.Output:
    """The one output of the file ``dvc add`` wrote for ``version``."""
    outs = dvcfile.load(single).outs
    if len(outs) != 1 or os.path.normpath(outs[0].path or "") != version:
        raise BenchieError(
            f"{display_name(str(single))}: not the one-output file `dvc add` writes for {version}"
        )
    return outs[0]


def _write_dvc_file(dvc_file: Path, content: dvcfile.DvcFile) -> None:
    """Write gold.dvc whole or not at all (a temporary file and a rename): it records
    every version, and a half-written one would lose them all."""
    atomic_write(str(dvc_file), content.render())


def _restage(dvc: str, repo: Path, dvc_file: Path, single: Path) -> None:
    """With ``core.autostage``, ``dvc add`` staged the version's own ``.dvc`` file, which
    is gone: stage gold.dvc instead, and the removal of the other (else a commit would
    carry a file that tracks the version a second time, or gold.dvc without it)."""
    # `dvc config --list` prints the levels in order (system, global, repo, local): the
    # last value wins.
    values = [
        line.partition("=")[2].strip().lower()
        for line in _run_dvc(dvc, repo, "config", "--list").splitlines()
        if line.partition("=")[0].strip() == "core.autostage"
    ]
    if not values or values[-1] not in ("true", "yes", "1", "on"):
        return
    git = shutil.which("git")
    if git is None:
        raise BenchieError("git not found")
    rel = os.path.relpath(dvc_file.resolve(), repo)
    gone = os.path.relpath(single.resolve(), repo)
    for args in (["add", "--", rel], ["rm", "--cached", "-q", "--ignore-unmatch", "--", gone]):
        try:
            proc = subprocess.run(
                [git, *args], cwd=repo, capture_output=True, text=True, timeout=600
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise BenchieError(f"`git {args[0]} {args[-1]}` could not run: {exc}") from None
        if proc.returncode != 0:
            said = (proc.stderr.strip().splitlines() or [""])[-1]
            raise BenchieError(f"`git {args[0]} {args[-1]}` failed: {said}")


def _collect(source: Path) -> tuple[list[tuple[str, Path]], list[Path]]:
    """The gold files of ``source`` (``<lang>/<facet>/<file>``) and its top-level files
    (``ATTRIBUTION.md``, a README), refusing anything else: an unexpected file is a
    mistake to name, not something to copy into a published version or to drop."""
    if not source.is_dir():
        raise BenchieError(f"--from {printable_path(str(source))}: not a directory")
    layout = f"<{'|'.join(LANGUAGES)}>/<{'|'.join(FILE_FACETS)}|reference>/FILE"
    gold: list[tuple[str, Path]] = []
    top: list[Path] = []
    facet_file: dict[str, str] = {}
    try:
        found = sorted(source.rglob("*"))
    except RecursionError:
        raise BenchieError(
            "a directory tree too deep to walk: a version is <lang>/<facet>/FILE",
            path=str(source),
        ) from None
    for path in found:
        rel = path.relative_to(source)
        shown = printable_path(rel.as_posix())
        if shown != rel.as_posix():
            raise BenchieError(f"file name {shown} is not UTF-8 text; rename it", path=str(source))
        if any(part.startswith(".") for part in rel.parts):
            raise BenchieError(
                f"hidden file {shown}: remove it (a version holds only its gold, {layout}, "
                "and top-level notes)",
                path=str(source),
            )
        if path.is_dir():
            if path.is_symlink():  # rglob does not descend into it: its files would be lost
                raise BenchieError(
                    f"{shown} is a symbolic link to a directory: copy the directory in",
                    path=str(source),
                )
            ok = len(rel.parts) == 1 and rel.parts[0] in LANGUAGES
            ok = ok or (len(rel.parts) == 2 and rel.parts[1] in (*FILE_FACETS, "reference"))
            if not ok:
                raise BenchieError(
                    f"unexpected directory {shown}: gold files go in {layout}", path=str(source)
                )
            continue
        if not path.is_file():
            raise BenchieError(f"{shown} is not a regular file", path=str(source))
        if len(rel.parts) == 1:
            if rel.name == MANIFEST:
                continue  # the new version gets a manifest of its own
            if path.is_symlink():  # a note is copied as it is: not whatever a link reaches
                raise BenchieError(
                    f"{shown} is a symbolic link: copy the file in", path=str(source)
                )
            top.append(path)
        elif len(rel.parts) == 3 and rel.parts[0] in LANGUAGES:
            slot = "/".join(rel.parts[:2])
            if rel.parts[1] != "reference" and slot in facet_file:
                # The manifest would list both, and scoring would silently take the first.
                raise BenchieError(
                    f"{printable_path(slot)}/ holds {facet_file[slot]} and {rel.name}: one "
                    "gold file a language and facet",
                    path=str(source),
                )
            facet_file[slot] = printable_path(rel.name)
            gold.append((rel.as_posix(), path))
        else:
            raise BenchieError(
                f"unexpected file {shown}: gold files go in {layout}", path=str(source)
            )
    if not any(rel.split("/")[1] != "reference" for rel, _ in gold):
        raise BenchieError(f"no gold file in it: gold files go in {layout}", path=str(source))
    return gold, top


def _validate(version_dir: Path, names: dict[str, str]) -> list[Diagnostic]:
    """Validate every scorable file of ``version_dir``; raise on errors (printed with the
    names the user knows, ``names``: store-relative path -> source path)."""
    from benchie_cli.gold.check import validate_gold

    found: list[Diagnostic] = []
    for rel, shown in names.items():
        language, facet = rel.split("/")[:2]
        if facet == "reference":
            continue
        report = validate_gold(str(version_dir / rel), language)
        found.extend(d._replace(path=shown) for d in report.diagnostics)
    errors = [d for d in found if d.severity == "error"]
    if errors:
        raise ValidationFailed(errors, len(found) - len(errors))
    return found


class ValidationFailed(BenchieError):
    """Gold files with errors: nothing was written. Carries the errors for the CLI."""

    def __init__(self, errors: list[Diagnostic], warnings: int) -> None:
        super().__init__(
            f"{len(errors)} error(s) and {warnings} warning(s) in the gold files; nothing "
            "was written (`benchie validate --kind gold` shows the same)",
            exit_code=ExitCode.FAILED,
        )
        self.errors = errors


def new_version(
    store_root: Path,
    version: str,
    source: Path,
    *,
    description: str,
    license: str,
    draft: bool = False,
    remote: str | None = None,
    use_dvc: bool = True,
) -> Added:
    """Add ``source`` to the store as ``version``; nothing is written if any check fails."""
    if not _NEW_VERSION.fullmatch(version):
        raise BenchieError(
            "a new gold version is named MAJOR.MINOR.PATCH (ASCII digits, no leading zeros), "
            f"not {printable_path(repr(version))}"
        )
    target = store_root / version
    present = os.path.lexists(target)  # a dangling symbolic link too: rename would fail
    if present or version in tracked_versions(store_root):
        state = "exists" if present else "is tracked by DVC (not pulled here)"
        raise BenchieError(
            f"gold {version} {state} in {printable_path(str(store_root))}: a version is "
            "never replaced; choose a new version number"
        )
    if version in BENCHMARKS[DEFAULT_BENCHMARK].shipped:
        raise BenchieError(f"gold {version} is a version benchie-cli ships; choose another")
    if not store_root.is_dir():
        raise BenchieError(f"gold store {printable_path(str(store_root))} does not exist")
    check_store_root(store_root)
    _check_text("--description", description)
    _check_text("--license", license)
    gold_files, top_files = _collect(source)
    _remove_stale_temporaries(store_root)
    tracking = _check_remote(remote, use_dvc, store_root)
    tmp: Path | None = None
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".new-{version}-", dir=store_root))
        for rel, path in gold_files:
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_bytes(read_whole(str(path), what="gold file"))
        for path in top_files:
            (tmp / path.name).write_bytes(read_whole(str(path)))
        warnings = _validate(tmp, {rel: display_name(str(p)) for rel, p in gold_files})
        manifest = build_manifest(
            tmp, version=version, description=description, license=license, released=not draft
        )
        manifest = _keep_upstream_paths(manifest, source)
        (tmp / MANIFEST).write_bytes(manifest_bytes(manifest))
        _make_readable(tmp)
        try:
            os.rename(tmp, target)
        except OSError:
            if os.path.lexists(target):  # another `gold new` of the same version won
                raise BenchieError(
                    f"gold {version} was created meanwhile by another run; nothing of this "
                    "one was kept"
                ) from None
            raise
    except OSError as exc:
        where = exc.filename if isinstance(exc.filename, str) else str(store_root)
        raise BenchieError(
            f"cannot write the new version: {exc.strerror or exc}; nothing was kept",
            path=display_name(where),
        ) from None
    finally:
        if tmp is not None and tmp.exists():
            with signals_deferred():  # a second Ctrl-C must not leave half of it behind
                shutil.rmtree(tmp, ignore_errors=True)
    with signals_deferred():
        dvc_file, note = _track(tracking, store_root, version, remote, use_dvc)
    return Added(
        version,
        target,
        manifest,
        tuple(warnings),
        dvc_file,
        note,
        remote,
    )


def _make_readable(version_dir: Path) -> None:
    """Directories 0755 and files 0644 whatever the umask (mkdtemp makes the version 0700,
    a umask of 077 its files 0600): a store is read by other users (an image's user)."""
    for path in (version_dir, *version_dir.rglob("*")):
        path.chmod(_DIR_MODE if path.is_dir() else _FILE_MODE)


def _keep_upstream_paths(manifest: Manifest, source: Path) -> Manifest:
    """Keep the ``upstream_path`` of each file that ``source``'s own manifest (a version
    copied from a store) lists with the same path and sha256: a byte-identical copy has the
    same provenance. The source's manifest is otherwise ignored; the new one is rebuilt."""
    try:
        old: Any = orjson.loads(read_whole(str(source / MANIFEST), what="manifest"))
    except (BenchieError, OSError, orjson.JSONDecodeError):
        return manifest
    if not isinstance(old, dict) or not isinstance(old.get("files"), list):
        return manifest
    known = {
        (f.get("path"), f.get("sha256")): f.get("upstream_path")
        for f in old["files"]
        if isinstance(f, dict)
    }
    files = []
    for entry in manifest.files:
        upstream = known.get((entry.path, entry.sha256))
        if isinstance(upstream, str) and upstream and entry.upstream_path is None:
            entry = entry._replace(upstream_path=upstream)
        files.append(entry)
    return manifest._replace(files=tuple(files))


def release_version(
    store_root: Path,
    version: str,
    *,
    description: str | None = None,
    license: str | None = None,
    remote: str | None = None,
    use_dvc: bool = True,
) -> Added:
    """Freeze a draft: validate its files again, write its manifest as released, and
    track the result with DVC (its output in gold.dvc keeps the remote it names, or takes
    ``remote``). A released manifest never changes, so it must say what the version is
    and under which licence."""
    version_dir = store_root / version
    if not is_version(version) or not version_dir.is_dir():
        raise BenchieError(
            f"no gold version {printable_path(version)!r} in {printable_path(str(store_root))}"
        )
    if is_released(version_dir):
        raise BenchieError(f"gold {version} is already released")
    # The layout `gold new` accepts, checked again: a draft edited by hand may have gained
    # an editor's backup (``en/default/.gold.txt.orig``, which the manifest would list and
    # scoring take as the gold: it sorts first) or a second file for one facet.
    _collect(version_dir)
    for option, value in (("--description", description), ("--license", license)):
        if value is not None:
            _check_text(option, value)
    tracking = _check_remote(remote, use_dvc, store_root)
    old = build_manifest(version_dir, description=description, license=license)
    missing = [
        n for n, v in (("--description", old.description), ("--license", old.license)) if not v
    ]
    if missing:
        raise BenchieError(
            f"gold {version} has no {' and no '.join(m[2:] for m in missing)}: a released "
            f"manifest never changes, so give {' and '.join(missing)}"
        )
    names = {e.path: display_name(str(version_dir / e.path)) for e in old.files}
    warnings = _validate(version_dir, names)
    manifest = old._replace(released=True)
    write_manifest(version_dir, manifest)  # keeps the file's mode (textio.atomic_write)
    remote = remote or dvc_remote_of(store_root, version)
    with signals_deferred():  # the manifest says released: its output in gold.dvc must follow
        dvc_file, note = _track(tracking, store_root, version, remote, use_dvc)
    return Added(
        version,
        version_dir,
        manifest,
        tuple(warnings),
        dvc_file,
        note,
        remote,
    )


def changelog_stub(added: Added, today: datetime.date | None = None) -> str:
    """The CHANGELOG.md entry of a released version, in the form the shipped ones have."""
    day = (today or datetime.date.today()).isoformat()
    lines = [f"## [gold-{added.version}] - {day}", ""]
    if added.manifest.description:
        lines += [added.manifest.description, ""]
    lines += ["### Added"]
    for e in added.manifest.files:
        if e.kind == "gold":
            lines.append(
                f"- `{e.path}` ({e.language}, {e.facet} facet): "
                f"{_count(e.sentences or 0, 'sentence')}, "
                f"{_count(e.synsets or 0, 'fact synset')}, sha256 `{e.sha256[:12]}…`."
            )
        else:
            lines.append(f"- `{e.path}` (reference, not scored), sha256 `{e.sha256[:12]}…`.")
    if added.manifest.license:
        lines.append(f"- Licence: {added.manifest.license}.")
    lines.append(f"- Manifest sha256 `{added.manifest_sha256}`.")
    return "\n".join(lines) + "\n"


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _check_text(option: str, value: str) -> None:
    """A description or licence is one line of text: it goes into a manifest that never
    changes and into the CHANGELOG entry, where a newline could forge a heading."""
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise BenchieError(f"{option}: one line of text, without control characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # bytes of the command line that are not UTF-8
        raise BenchieError(f"{option}: not UTF-8 text ({printable_path(value)!r})") from None
