"""External benchmarks: gold that benchie may not redistribute, added by each user.

Re-OIE2016 and WiRe57 are published without a licence, so no copy of them is in this
package, its repository or its images. A user downloads the published file and runs
``benchie benchmark add NAME FILE``; :func:`add` checks that the file is the published one
(its sha256, the registry's ``Published.sha256``), that it reads (the benchmark's own reader), and
imports it into the local gold store as version 1.0.0 of the benchmark, pinned like any
gold::

    <gold dir>/<name>/
      .gitignore              "*": an added copy inside a git checkout is never committed
      1.0.0/
        manifest.json         the CaRB benchmark's schema: "benchmark", "splits", the file
        ATTRIBUTION.md        the source, the citation, and that it is the user's copy
        test/<file>           the published file, byte for byte

The manifest's bytes are a function of the file's (:func:`manifest_bytes_for`), so the
same file added anywhere gives the same manifest, whose sha256 is pinned in
the registry (``Benchmark.shipped``) like a shipped version's: a
hand-edited manifest is refused by every run that reads the gold. docs/gold-store.md,
"External benchmarks", states it for users.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from benchie_cli.errors import BenchieError, ExitCode, printable_path
from benchie_cli.gold.store import MANIFEST, MANIFEST_SCHEMA, GoldStore, ResolvedGold
from benchie_cli.registry import BENCHMARKS, EXTERNAL, Published, implementation
from benchie_cli.textio import atomic_write, display_name, read_whole, temporary_directory

ATTRIBUTION = "ATTRIBUTION.md"
GITIGNORE = ".gitignore"
#: What ``<gold dir>/<name>/.gitignore`` holds: everything below it stays out of git.
GITIGNORE_BYTES = b"*\n"
#: Modes of an added version's directories and files, whatever the umask (as ``gold new``).
_DIR_MODE, _FILE_MODE = 0o755, 0o644
#: Prefix of the temporary directory an ``add`` builds in (removed however it ends).
_TMP_PREFIX = ".add-"


@dataclass(frozen=True, slots=True)
class External:
    """An external benchmark as adding it needs it: its registry entry's name and label, and
    the file its authors publish (``registry.Published``)."""

    name: str
    label: str
    published: Published

    @property
    def add_command(self) -> str:
        """The command that adds it, to paste (run where the downloaded file is)."""
        return f"benchie benchmark add {self.name} {self.published.file}"

    @property
    def license(self) -> str:
        """The manifest's ``license``: there is none, and benchie does not redistribute it."""
        return (
            f"no licence: not redistributed by benchie; added by the user from {self.published.url}"
        )

    def read(self, path: str) -> Mapping[str, Sequence[Any]]:
        """The benchmark's own reader of its published file (its package's
        ``read_published``): a path in, its sentences' tuples out."""
        reader: Callable[[str], Mapping[str, Sequence[Any]]] = implementation(
            self.name
        ).read_published
        return reader(path)


Say = Callable[[str], None]


def get(name: str) -> External:
    """The external benchmark ``name``; an unknown name is an error (exit 2)."""
    entry = BENCHMARKS.get(name)
    if entry is None or entry.published is None:
        raise BenchieError(
            f"unknown external benchmark {printable_path(name)!r} (known: {', '.join(EXTERNAL)})"
        )
    return External(entry.name, entry.label, entry.published)


def store(root: Path, name: str) -> GoldStore:
    """The external benchmark ``name``'s store inside the gold directory ``root``."""
    get(name)
    return GoldStore(root / name, benchmark=name)


def added_versions(root: Path, name: str) -> list[str]:
    """The versions of ``name`` added to the gold directory ``root`` (none: not added)."""
    return store(root, name).versions()


def missing_message(name: str) -> str:
    """What a command says when ``name`` is not in the gold store: why, where to get the
    file, and the exact command that adds it."""
    e = get(name)
    return (
        f"the {e.label} benchmark is not in the gold store: it has no licence, so benchie "
        f"does not ship it; download {e.published.file} from {e.published.url} "
        f"({e.published.upstream_path}; "
        f"{e.published.download_url}) and add it with `{e.add_command}` (give the same --gold-dir "
        "as to this command, if any)"
    )


def resolve(root: Path, name: str, version: str | None = None) -> ResolvedGold:
    """The gold file of ``name`` (its ``test`` split) in the gold directory ``root``, read
    once, hashed and checked against its manifest (and the manifest against its pin), as
    :meth:`GoldStore.listed` does. ``version`` defaults to the table's (1.0.0). Not added:
    an error with :func:`missing_message` (exit 2)."""
    e = get(name)
    gold_store = store(root, name)
    if not gold_store.versions():
        raise BenchieError(missing_message(name))
    return gold_store.listed(version or e.published.version, "gold", e.published.split)


def read_gold(name: str, gold: ResolvedGold) -> Mapping[str, Sequence[Any]]:
    """``name``'s reader applied to the checked bytes ``gold.data`` (never to the file
    again: what is parsed is what was hashed). The readers take a path, so the bytes go
    through a private temporary file; an error names the store's file (exit 2)."""
    e = get(name)
    with temporary_directory("benchie-") as directory:
        path = Path(directory) / e.published.file
        path.write_bytes(gold.data)
        return _parse(e, str(path), gold.display_path)


_LOCATION = re.compile(r":(\d+): (.*)", re.DOTALL)


def _parse(e: External, path: str, shown: str) -> Mapping[str, Sequence[Any]]:
    """Read ``path`` with the benchmark's reader; its error (a ``ValueError`` naming
    ``path`` and a location) becomes one line naming ``shown`` instead."""
    try:
        return e.read(path)
    except RecursionError:
        raise BenchieError(f"not {e.label}'s format: nested too deeply", path=shown) from None
    except UnicodeDecodeError as exc:
        raise BenchieError(f"not {e.label}'s format: not UTF-8 ({exc})", path=shown) from None
    except ValueError as exc:  # ReOieError, WireError
        message = " ".join(str(exc).split())  # one line
        line = None
        if message.startswith(path):
            rest = message[len(path) :]
            match = _LOCATION.fullmatch(rest)
            if match:
                line, message = int(match.group(1)), match.group(2)
            else:
                message = rest.removeprefix(":").strip()
        raise BenchieError(f"not {e.label}'s format: {message}", path=shown, line=line) from None


def manifest_document(name: str, sha256: str, size: int, sentences: int) -> dict[str, Any]:
    """The manifest of ``name``'s version holding a file with this sha256, size and number
    of sentences: the CaRB benchmark's schema (docs/gold-store.md)."""
    e = get(name)
    return {
        "schema": MANIFEST_SCHEMA,
        "version": e.published.version,
        "benchmark": e.name,
        "description": (
            f"{e.label}'s gold ({e.published.split} split), the user's copy of the file its "
            "authors "
            f"published; benchie does not redistribute it"
        ),
        "license": e.license,
        "splits": [e.published.split],
        "files": [
            {
                "path": f"{e.published.split}/{e.published.file}",
                "language": "en",
                "facet": e.published.split,
                "kind": "gold",
                "sha256": sha256,
                "bytes": size,
                "sentences": sentences,
                "synsets": None,
                "upstream_path": e.published.upstream_path,
            }
        ],
    }


def manifest_bytes_for(name: str, sha256: str, size: int, sentences: int) -> bytes:
    """:func:`manifest_document` as written: indented, keys in a fixed order, a trailing
    newline, so the same file gives the same bytes wherever it is added. For the published
    file, their sha256 is the registry's pin (``Benchmark.shipped``)."""
    doc = manifest_document(name, sha256, size, sentences)
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"


def attribution(name: str, sha256: str) -> bytes:
    """``ATTRIBUTION.md`` of an added version: where the file comes from, whom to cite,
    and that this copy is the user's, not benchie's."""
    e = get(name)
    return (
        f"# {e.label} gold, version {e.published.version}\n"
        "\n"
        f"`{e.published.split}/{e.published.file}` is the file the authors of {e.label} published, "
        "byte for byte "
        f"(sha256 `{sha256}`):\n"
        "\n"
        f"> {e.published.citation}\n"
        f"> Data: {e.published.url} (`{e.published.upstream_path}`)\n"
        "\n"
        f"It has no licence. benchie does not redistribute it: this copy is yours, added "
        f"with `{e.add_command}` from the file you downloaded. Do not commit it or put it in "
        "an image or an archive you share (the `.gitignore` beside this version keeps it "
        "out of git). Cite the paper above when you report scores on it.\n"
    ).encode()


def add(name: str, source_path: Path, root: Path, *, say: Say | None = None) -> Path:
    """Add the published file of ``name`` at ``source_path`` to the gold directory ``root``
    as ``root/<name>/<version>``; return that directory.

    The file is read once (bounded); a sha256 other than the published one's is refused
    (exit 1: not the published file), as is a file the benchmark's reader cannot read (exit
    2). The version is built in a temporary directory beside its place and renamed into it:
    it appears whole or not at all, also on Ctrl-C. Already present with the same file
    (or put in place meanwhile by another run with the same file and manifest): said,
    nothing written; present with another: refused (exit 2). A file known to be mistaken
    for the published one (``Published.lookalikes``) is named. ``say`` receives the
    one-line outcome."""
    from benchie_cli.gold.lifecycle import check_store_root

    e = get(name)
    check_store_root(root)  # never into a version (`--gold-dir gold/1.1.0`)
    source = str(source_path)
    shown = display_name(source)
    data = read_whole(source, what=f"{e.label} file")
    sha = hashlib.sha256(data).hexdigest()
    pinned = e.published.sha256
    if sha != pinned:
        externals = [get(n) for n in EXTERNAL]
        other = next((x for x in externals if x.published.sha256 == sha), None)
        lookalikes = {k: v for x in externals for k, v in x.published.lookalikes.items()}
        if other is not None:
            hint = f"it is {other.label}'s: `benchie benchmark add {other.name} {shown}`"
        elif sha in lookalikes:
            # What the file is, then where the one asked for is (its upstream path).
            hint = (
                lookalikes[sha].format(file=shown)
                + f"; {e.label}'s is {e.published.upstream_path} there"
            )
        else:
            hint = f"download it again from {e.published.download_url}"
        raise BenchieError(
            f"sha256 {sha} is not that of the published {e.published.file} ({pinned}, from "
            f"{e.published.url}): this file is not the published one ({len(data):,} bytes); {hint}",
            path=shown,
            exit_code=ExitCode.FAILED,
        )
    bench_dir = root / name
    target = bench_dir / e.published.version
    if os.path.lexists(target):
        _check_present(e, root, target, sha)
        _say_present(e, target, sha, say)
        return target
    _check_writable(root, bench_dir)
    counts = _write(e, data, sha, shown, root, bench_dir, target)
    if counts is None:  # another run added the same file meanwhile: it is in place
        _say_present(e, target, sha, say)
        return target
    if say is not None:
        sentences, tuples = counts
        say(
            f"added {e.label} {e.published.version} to {display_name(str(target))}: "
            f"{sentences:,} sentences, {tuples:,} tuples, sha256 {sha}; your copy, kept out of "
            f"git by {display_name(str(bench_dir / GITIGNORE))}"
        )
    return target


def _say_present(e: External, target: Path, sha: str, say: Say | None) -> None:
    if say is not None:
        say(
            f"{e.label} {e.published.version} is already in {display_name(str(target))} with "
            f"the same file (sha256 {sha}); nothing written"
        )


def _check_present(
    e: External, root: Path, target: Path, sha: str, manifest: bytes | None = None
) -> None:
    """A version already in place: the same published file, intact (return), or refused.
    ``manifest``, if given, must be the bytes of the manifest in place, too (the manifest
    pin checks them otherwise: the same thing, for the published file)."""
    where = display_name(str(target))
    try:
        present = store(root, e.name).listed(e.published.version, "gold", e.published.split)
        same_manifest = manifest is None or (target / MANIFEST).read_bytes() == manifest
    except OSError as exc:
        raise BenchieError(
            f"{e.label} {e.published.version} is already added but cannot be used "
            f"({exc.strerror or exc}); remove it and run `{e.add_command}` again",
            path=where,
        ) from None
    except BenchieError as exc:
        problem = f"{exc.path}: {exc.message}" if exc.path else exc.message
        raise BenchieError(
            f"{e.label} {e.published.version} is already added but cannot be used "
            f"({problem}); remove it and run `{e.add_command}` again",
            path=where,
        ) from None
    if present.sha256 != sha or not same_manifest:
        what = (
            f"another file (sha256 {present.sha256}, not the published {sha})"
            if present.sha256 != sha
            else "the same file but another manifest"
        )
        raise BenchieError(
            f"{e.label} {e.published.version} is already added with {what}: a version is never "
            f"replaced; remove it to add the published file",
            path=where,
        )


def _check_writable(root: Path, bench_dir: Path) -> None:
    """Before anything is written: the directory the version goes into can be written."""
    directory = bench_dir if os.path.lexists(bench_dir) else root
    where = display_name(str(directory))
    if not directory.is_dir():
        raise BenchieError(
            "not a directory: remove it, or give another gold directory (--gold-dir)", path=where
        )
    if not os.access(directory, os.W_OK | os.X_OK):
        raise BenchieError(
            "the gold directory is not writable: add the benchmark to a gold directory you "
            "can write (--gold-dir DIR or $BENCHIE_GOLD_DIR), and score with the same one",
            path=where,
        )


def _write(
    e: External, data: bytes, sha: str, shown: str, root: Path, bench_dir: Path, target: Path
) -> tuple[int, int] | None:
    """Build the version in a temporary directory, check that the benchmark's reader reads
    the bytes kept, and rename it into place; ``(sentences, tuples)`` read, or ``None`` when
    another run put the same version in place meanwhile (same file, same manifest: nothing
    of this one is kept; another file there is refused).

    A first add builds the whole ``<name>/`` directory (with its ``.gitignore``) beside it
    in ``root`` and renames it; a later one builds the version inside ``<name>/``. The
    temporary directory holds a ``.gitignore`` of its own from the start, so that even one
    left by a killed run (SIGKILL) is never committed. It is created and recorded with the
    stop signals held back, so that a Ctrl-C never falls between the two (the ``finally``
    removes whatever is recorded)."""
    from benchie_cli.gold.lifecycle import signals_deferred

    fresh = not os.path.lexists(bench_dir)
    parent = root if fresh else bench_dir
    _remove_stale_temporaries(parent, e.name)
    tmp: Path | None = None
    try:
        with signals_deferred():  # created and recorded together: a Ctrl-C cannot leak it
            tmp = Path(tempfile.mkdtemp(prefix=f"{_TMP_PREFIX}{e.name}-", dir=parent))
        (tmp / GITIGNORE).write_bytes(GITIGNORE_BYTES)
        version_dir = tmp / e.published.version if fresh else tmp
        gold_path = version_dir / e.published.split / e.published.file
        gold_path.parent.mkdir(parents=True)
        gold_path.write_bytes(data)
        parsed = _parse(e, str(gold_path), shown)  # the bytes kept, as they will be read
        sentences, tuples = len(parsed), sum(len(v) for v in parsed.values())
        manifest = manifest_bytes_for(e.name, sha, len(data), sentences)
        (version_dir / MANIFEST).write_bytes(manifest)
        (version_dir / ATTRIBUTION).write_bytes(attribution(e.name, sha))
        if not fresh:
            (tmp / GITIGNORE).unlink()  # <name>/.gitignore covers the version once renamed
        _make_readable(tmp)
        with signals_deferred():  # the version and its .gitignore arrive together
            try:
                os.rename(tmp, bench_dir if fresh else target)
            except OSError:
                if not os.path.lexists(target):
                    raise
                placed = False  # another add of the same benchmark won the race
            else:
                placed = True
                if not fresh:
                    _ensure_gitignore(bench_dir)
        if not placed:
            # What the other run put there arrived whole (a rename): the same file and
            # manifest is what this run wanted (exit 0); anything else is refused.
            _check_present(e, root, target, sha, manifest)
            return None
    except OSError as exc:
        where = exc.filename if isinstance(exc.filename, str) else str(root)
        raise BenchieError(
            f"cannot write the benchmark: {exc.strerror or exc}; nothing was kept",
            path=display_name(where),
        ) from None
    finally:
        if tmp is not None and os.path.lexists(tmp):
            with signals_deferred():  # a second Ctrl-C must not leave half of it behind
                shutil.rmtree(tmp, ignore_errors=True)
    return sentences, tuples


def _remove_stale_temporaries(parent: Path, name: str) -> None:
    """Temporary directories of adds killed (SIGKILL, power loss) over an hour ago."""
    cutoff = time.time() - 3600
    for path in parent.glob(f"{_TMP_PREFIX}{name}-*"):
        try:
            if path.is_dir() and not path.is_symlink() and path.stat().st_mtime < cutoff:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue


def _ensure_gitignore(bench_dir: Path) -> None:
    """``<name>/.gitignore`` ignores everything (written again if it does not). Called
    once the version is in place: a failure says so, never "nothing was kept"."""
    path = bench_dir / GITIGNORE
    try:
        lines = path.read_bytes().splitlines() if path.is_file() else []
    except OSError:
        lines = []
    if b"*" in (line.strip() for line in lines):
        return
    try:
        atomic_write(str(path), GITIGNORE_BYTES, durable=False)
    except BenchieError as exc:
        raise BenchieError(
            f"the benchmark was added to {display_name(str(bench_dir))}, but its .gitignore "
            f"could not be written ({exc.message}): write a .gitignore holding `*` there, or "
            "the copy may be committed by mistake",
            path=display_name(str(path)),
        ) from None


def _make_readable(directory: Path) -> None:
    """Directories 0755 and files 0644 whatever the umask (mkdtemp makes 0700): a store
    may be read by other users."""
    for path in (directory, *directory.rglob("*")):
        path.chmod(_DIR_MODE if path.is_dir() else _FILE_MODE)
