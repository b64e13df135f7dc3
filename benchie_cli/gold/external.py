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
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, overload

import orjson

from benchie_cli.errors import BenchieError, ExitCode, printable_path
from benchie_cli.gold.dirs import GoldDirs
from benchie_cli.gold.store import MANIFEST, MANIFEST_SCHEMA, GoldStore, ResolvedGold
from benchie_cli.records import Record
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


class External(Record):
    """One part of a benchmark's published files (``registry.Published``): a language's or
    a split's gold with the files it needs beside it, added together as one version of
    their own, in the benchmark's store (part ``""``) or a directory under it."""

    name: str
    label: str
    part: str
    #: Its files, the gold first.
    files: tuple[Published, ...]

    @property
    def published(self) -> Published:
        """Its gold file."""
        return self.files[0]

    @property
    def what(self) -> str:
        """The part in messages: "Re-OIE2016", "Re-OIE2016 (es, test)"."""
        p = self.published
        if self.part == "":
            return self.label
        return f"{self.label} ({p.language}, {p.split})"

    @property
    def add_command(self) -> str:
        """The command that adds it, to paste (run where the downloaded files are)."""
        return f"benchie benchmark add {self.name} {' '.join(f.file for f in self.files)}"

    @property
    def license(self) -> str:
        """The manifest's ``license``: there is none, and benchie does not redistribute it."""
        return (
            f"no licence: not redistributed by benchie; added by the user from {self.published.url}"
        )

    @overload
    def directory(self, root: Path) -> Path: ...
    @overload
    def directory(self, root: GoldDirs) -> GoldDirs: ...
    def directory(self, root: Path | GoldDirs) -> Path | GoldDirs:
        """Where its versions go in the gold directory ``root`` (or the stores)."""
        own = root / BENCHMARKS[self.name].store_dir
        return own / self.part if self.part else own

    def store(self, root: Path | GoldDirs) -> GoldStore:
        """Its store in the gold directory ``root`` (or the stores of the order), its
        manifests checked against their pins (:meth:`pins`)."""
        return GoldStore(self.directory(root), benchmark=self.name, pins=self.pins())

    def pins(self) -> Mapping[str, str]:
        """The sha256 of the manifest ``add`` writes for its published files, by version:
        the registry's pin for a benchmark's first part, else computed from the published
        facts the registry holds (the same thing: a function of them)."""
        if self.part == "":
            return BENCHMARKS[self.name].shipped
        p = self.published
        manifest = manifest_bytes_for(self.name, p.sha256, p.size, p.sentences, part=self.part)
        return {p.version: hashlib.sha256(manifest).hexdigest()}

    def read(self, path: str) -> Mapping[str, Sequence[Any]]:
        """The benchmark's own reader of its published gold file (its package's
        ``read_published``): a path in, its sentences' tuples out."""
        reader: Callable[[str], Mapping[str, Sequence[Any]]] = implementation(
            self.name
        ).read_published
        return reader(path)


Say = Callable[[str], None]


def _known(name: str) -> None:
    entry = BENCHMARKS.get(name)
    if entry is None or not entry.published:
        raise BenchieError(
            f"unknown external benchmark {printable_path(name)!r} (known: {', '.join(EXTERNAL)})"
        )


def part(name: str, part_name: str) -> External:
    """The part ``part_name`` of ``name``'s published files."""
    _known(name)
    entry = BENCHMARKS[name]
    return External(name, entry.label, part_name, entry.part_files(part_name))


def parts(name: str) -> list[External]:
    """Every part of ``name``'s published files, in the registry's order."""
    _known(name)
    names = dict.fromkeys(p.part for p in BENCHMARKS[name].published)
    return [part(name, n) for n in names]


def get(name: str) -> External:
    """The first part of the external benchmark ``name`` (its English default split's, for
    a benchmark with one published file its only); an unknown name is an error (exit 2)."""
    return parts(name)[0]


def part_for(name: str, language: str, split: str) -> External | None:
    """The part holding ``name``'s gold of ``language`` and ``split`` (None: none does)."""
    if not BENCHMARKS[name].published:
        return None
    found = BENCHMARKS[name].part(language, split)
    return None if found is None else part(name, found)


def store(root: Path | GoldDirs, name: str, part_name: str = "") -> GoldStore:
    """The store of ``name``'s part ``part_name`` (default its first) in the gold
    directory ``root``, its manifests checked against their pins."""
    e = part(name, part_name) if part_name else get(name)
    return e.store(root)


def added_versions(root: Path | GoldDirs, name: str, part_name: str = "") -> list[str]:
    """The versions of a part of ``name`` added to ``root`` (none: not added)."""
    return store(root, name, part_name).versions()


def missing_message(name: str, language: str = "en", split: str | None = None) -> str:
    """What a command says when a part of ``name`` is not in the gold store: why, where to
    get its files, and the exact command that adds them."""
    _known(name)
    split = split or BENCHMARKS[name].splits[0]
    e = part_for(name, language, split)
    if e is None:
        entry = BENCHMARKS[name]
        return (
            f"{entry.label} has no gold of --lang {language} and --split {split}: its published "
            "gold is "
            + ", ".join(f"{p.language} {p.split}" for p in entry.published if p.kind == "gold")
        )
    files = " and ".join(f.file for f in e.files)
    paths = (
        f"{e.published.upstream_path}; {e.published.download_url}"
        if len(e.files) == 1
        else "; ".join(f"{f.upstream_path}: {f.download_url}" for f in e.files)
    )
    return (
        f"the {e.what} benchmark is not in the gold store: it has no licence, so benchie "
        f"does not ship it; download {files} from {e.published.url} "
        f"({paths}) and add {'them' if len(e.files) > 1 else 'it'} with `{e.add_command}` "
        "(give the same --gold-dir as to this command, if any)"
    )


def resolve(root: Path | GoldDirs, name: str, version: str | None = None) -> ResolvedGold:
    """The gold file of ``name``'s first part in the gold directory ``root``, read once,
    hashed and checked against its manifest (and the manifest against its pin), as
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


def manifest_document(
    name: str, sha256: str, size: int, sentences: int, *, part: str = ""
) -> dict[str, Any]:
    """The manifest of the version of ``name``'s part ``part`` whose gold file has this
    sha256, size and number of sentences (the part's other files as published): the CaRB
    benchmark's schema (docs/gold-store.md)."""
    e = next((x for x in parts(name) if x.part == part), None) or get(name)
    g = e.published
    where = f"{g.split} split" if g.language == "en" else f"{g.split} split, {g.language}"
    several = len(e.files) > 1
    return {
        "schema": MANIFEST_SCHEMA,
        "version": g.version,
        "benchmark": e.name,
        "description": (
            f"{e.label}'s gold ({where}), the user's copy of the file{'s' if several else ''} "
            f"its authors published; benchie does not redistribute {'them' if several else 'it'}"
        ),
        "license": e.license,
        "splits": [g.split],
        "files": [
            {
                "path": f"{f.split}/{f.file}",
                "language": f.language,
                "facet": f.split,
                "kind": f.kind,
                "sha256": sha256 if f is g else f.sha256,
                "bytes": size if f is g else f.size,
                "sentences": sentences if f is g else f.sentences,
                "synsets": None,
                "upstream_path": f.upstream_path,
            }
            for f in e.files
        ],
    }


def manifest_bytes_for(
    name: str, sha256: str, size: int, sentences: int, *, part: str = ""
) -> bytes:
    """:func:`manifest_document` as written: indented, keys in a fixed order, a trailing
    newline, so the same files give the same bytes wherever they are added. For the
    published files, their sha256 is the part's pin (:meth:`External.pins`)."""
    doc = manifest_document(name, sha256, size, sentences, part=part)
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"


def attribution(e: External, sha256: str) -> bytes:
    """``ATTRIBUTION.md`` of an added version: where the files come from, whom to cite,
    and that this copy is the user's, not benchie's."""
    g = e.published
    listed = "".join(
        f"`{f.split}/{f.file}` (sha256 `{sha256 if f is g else f.sha256}`, `{f.upstream_path}`)\n"
        if len(e.files) > 1
        else ""
        for f in e.files
    )
    if len(e.files) == 1:
        head = (
            f"`{g.split}/{g.file}` is the file the authors of {e.label} published, "
            "byte for byte "
            f"(sha256 `{sha256}`):\n"
        )
        source = f"> Data: {g.url} (`{g.upstream_path}`)\n"
        these = "It has no licence"
    else:
        head = f"These are the files the authors of {e.label} published, byte for byte:\n\n{listed}"
        source = f"> Data: {g.url}\n"
        these = "They have no licence"
    return (
        f"# {e.what} gold, version {g.version}\n"
        "\n"
        f"{head}"
        "\n"
        f"> {g.citation}\n"
        f"{source}"
        "\n"
        f"{these}. benchie does not redistribute {'it' if len(e.files) == 1 else 'them'}: this "
        f"copy is yours, added "
        f"with `{e.add_command}` from the file{'s' if len(e.files) > 1 else ''} you downloaded. "
        "Do not commit it or put it in "
        "an image or an archive you share (the `.gitignore` beside this version keeps it "
        "out of git). Cite the paper above when you report scores on it.\n"
    ).encode()


def _identify(name: str, shown: str, data: bytes) -> Published:
    """The published file of ``name`` with the sha256 of ``data``; another file is refused
    (exit 1: not a published file), naming the file expected and its sha256, and what the
    file is when it is known (another benchmark's published file, a lookalike)."""
    sha = hashlib.sha256(data).hexdigest()
    entry = BENCHMARKS[name]
    found = next((p for p in entry.published if p.sha256 == sha), None)
    if found is not None:
        return found
    every = [(BENCHMARKS[n], p) for n in EXTERNAL for p in BENCHMARKS[n].published]
    other = next(((b, p) for b, p in every if p.sha256 == sha), None)
    lookalikes = {k: v for _, p in every for k, v in p.lookalikes.items()}
    base = Path(shown).name
    named = [p for p in entry.published if p.file == base]
    meant = named or list(entry.published)
    size = f"({len(data):,} bytes)"
    if sha in lookalikes and other is None:  # what the file is, first
        first = named[0] if named else entry.published[0]
        message = (
            f"{lookalikes[sha].format(file=shown)} (sha256 {sha}, {size[1:-1]}: not "
            f"{entry.label}'s {first.file}, which is {first.upstream_path} there)"
        )
        raise BenchieError(message, path=shown, exit_code=ExitCode.FAILED)
    if other is not None:
        hint = f"it is {other[0].label}'s: `benchie benchmark add {other[0].name} {shown}`"
    elif len(meant) == 1:
        hint = f"download it again from {meant[0].download_url}"
    else:
        hint = (
            f"download the one you meant again from {meant[0].url} (`benchie benchmark list "
            "--format json` names each file, its sha256, where it is and the command that adds "
            "it)"
        )
    if len(meant) == 1:
        expected = f"the published {meant[0].file} ({meant[0].sha256}, from {meant[0].url})"
    elif len(meant) <= 6:
        expected = (
            f"any of {entry.label}'s published files ("
            + ", ".join(f"{p.file} {p.sha256}" for p in meant)
            + ")"
        )
    else:
        files = ", ".join(dict.fromkeys(p.file for p in meant))
        expected = f"any of {entry.label}'s {len(meant)} published files ({files})"
    raise BenchieError(
        f"sha256 {sha} is not that of {expected}: this file is not the published one "
        f"{size}; {hint}",
        path=shown,
        exit_code=ExitCode.FAILED,
    )


def add(name: str, sources: Path | Sequence[Path], root: Path, *, say: Say | None = None) -> Path:
    """Add published files of ``name`` (each recognised by its sha256: language, split,
    what it is) to the gold directory ``root``, a version of each part they complete;
    return the version directory of the first file's part.

    Each file is read once (bounded); a sha256 that is none of ``name``'s published files
    is refused (exit 1: not a published file), as is a file the benchmark's reader cannot
    read (exit 2), and a part given without all its files (exit 2, naming the missing
    ones). Each version is built in a temporary directory beside its place and renamed
    into it: it appears whole or not at all, also on Ctrl-C. Already present with the same
    files (or put in place meanwhile by another run with the same files and manifest):
    said, nothing written; present with others: refused (exit 2). A file known to be
    mistaken for a published one (``Published.lookalikes``) is named. ``say`` receives one
    line for each part."""
    from benchie_cli.gold.lifecycle import check_store_root

    _known(name)
    check_store_root(root)  # never into a version (`--gold-dir gold/1.1.0`)
    given = [sources] if isinstance(sources, Path) else list(sources)
    found: dict[str, dict[str, tuple[Published, bytes, str]]] = {}
    for source_path in given:
        source = str(source_path)
        shown = display_name(source)
        data = read_whole(source, what=f"{BENCHMARKS[name].label} file")
        p = _identify(name, shown, data)
        found.setdefault(p.part, {})[p.file] = (p, data, shown)
    targets: list[Path] = []
    placed = []
    for part_name, files in found.items():  # every part checked before any is written
        e = part(name, part_name)
        target = e.directory(root) / e.published.version
        missing = [f.file for f in e.files if f.file not in files]
        if missing and not os.path.lexists(target):
            raise BenchieError(
                f"{e.what} is added with all its files together: give "
                f"{' and '.join(missing)} too (`{e.add_command}`); nothing was written"
            )
        placed.append((e, files, target))
    for e, files, target in placed:
        targets.append(_add_part(e, files, root, target, say))
    return targets[0]


def _add_part(
    e: External,
    files: Mapping[str, tuple[Published, bytes, str]],
    root: Path,
    target: Path,
    say: Say | None,
) -> Path:
    """One part added (or found in place), as :func:`add` says."""
    gold_file = files.get(e.published.file)
    sha = e.published.sha256 if gold_file is None else hashlib.sha256(gold_file[1]).hexdigest()
    bench_dir = target.parent
    if os.path.lexists(target):
        _check_present(
            e, root, target, {f: hashlib.sha256(d).hexdigest() for f, (_, d, _) in files.items()}
        )
        _say_present(e, target, sha, say)
        return target
    assert gold_file is not None  # a part not in place comes with all its files
    _check_writable(root, bench_dir)
    counts = _write(
        e, {f: d for f, (_, d, _) in files.items()}, sha, gold_file[2], root, bench_dir, target
    )
    if counts is None:  # another run added the same files meanwhile: they are in place
        _say_present(e, target, sha, say)
        return target
    if say is not None:
        sentences, tuples = counts
        say(
            f"added {e.what} {e.published.version} to {display_name(str(target))}: "
            f"{sentences:,} sentences, {tuples:,} tuples, sha256 {sha}; your copy, kept out of "
            f"git by {display_name(str(bench_dir / GITIGNORE))}"
        )
    return target


def _say_present(e: External, target: Path, sha: str, say: Say | None) -> None:
    if say is not None:
        say(
            f"{e.what} {e.published.version} is already in {display_name(str(target))} with "
            f"the same file{'s' if len(e.files) > 1 else ''} (sha256 {sha}); nothing written"
        )


def _check_present(
    e: External,
    root: Path,
    target: Path,
    shas: Mapping[str, str],
    manifest: bytes | None = None,
) -> None:
    """A version already in place: the same published files, intact (return), or refused.
    ``manifest``, if given, must be the bytes of the manifest in place, too (the manifest
    pin checks them otherwise: the same thing, for the published files)."""
    where = display_name(str(target))
    gold_store = e.store(root)  # (``target`` is its version directory)
    try:
        present = {f.file: gold_store.listed(f.version, f.kind, f.split).sha256 for f in e.files}
        same_manifest = manifest is None or (target / MANIFEST).read_bytes() == manifest
    except OSError as exc:
        raise BenchieError(
            f"{e.what} {e.published.version} is already added but cannot be used "
            f"({exc.strerror or exc}); remove it and run `{e.add_command}` again",
            path=where,
        ) from None
    except BenchieError as exc:
        problem = f"{exc.path}: {exc.message}" if exc.path else exc.message
        raise BenchieError(
            f"{e.what} {e.published.version} is already added but cannot be used "
            f"({problem}); remove it and run `{e.add_command}` again",
            path=where,
        ) from None
    differing = [f for f, sha in shas.items() if present.get(f) != sha]
    if differing or not same_manifest:
        what = (
            f"another file{'' if len(e.files) == 1 else ' as ' + differing[0]} (sha256 "
            f"{present.get(differing[0])}, not the published {shas[differing[0]]})"
            if differing
            else "the same files but another manifest"
        )
        raise BenchieError(
            f"{e.what} {e.published.version} is already added with {what}: a version is never "
            f"replaced; remove it to add the published files",
            path=where,
        )


def _check_writable(root: Path, bench_dir: Path) -> None:
    """Before anything is written: the directory the version goes into can be written."""
    directory = next(
        (d for d in (bench_dir, bench_dir.parent) if os.path.lexists(d) and d != root), root
    )
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
    e: External,
    files: Mapping[str, bytes],
    sha: str,
    shown: str,
    root: Path,
    bench_dir: Path,
    target: Path,
) -> tuple[int, int] | None:
    """Build the version in a temporary directory, check that the benchmark's reader reads
    the gold bytes kept, and rename it into place; ``(sentences, tuples)`` read, or
    ``None`` when another run put the same version in place meanwhile (same files, same
    manifest: nothing of this one is kept; other files there are refused).

    A first add builds the whole part directory (with its ``.gitignore``) beside it and
    renames it; a later one builds the version inside it. The temporary directory holds a
    ``.gitignore`` of its own from the start, so that even one left by a killed run
    (SIGKILL) is never committed. It is created and recorded with the stop signals held
    back, so that a Ctrl-C never falls between the two (the ``finally`` removes whatever
    is recorded)."""
    import shutil  # (here: scoring imports this module and never writes a part, ~5 ms)
    import tempfile

    from benchie_cli.gold.lifecycle import signals_deferred

    fresh = not os.path.lexists(bench_dir)
    parent = bench_dir.parent if fresh else bench_dir
    tmp: Path | None = None
    try:
        parent.mkdir(parents=True, exist_ok=True)  # a part's benchmark directory, first
        _remove_stale_temporaries(parent, e.name)
        with signals_deferred():  # created and recorded together: a Ctrl-C cannot leak it
            tmp = Path(tempfile.mkdtemp(prefix=f"{_TMP_PREFIX}{e.name}-", dir=parent))
        (tmp / GITIGNORE).write_bytes(GITIGNORE_BYTES)
        version_dir = tmp / e.published.version if fresh else tmp
        for f in e.files:
            path = version_dir / f.split / f.file
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(files[f.file])
        gold_path = version_dir / e.published.split / e.published.file
        parsed = _parse(e, str(gold_path), shown)  # the bytes kept, as they will be read
        sentences, tuples = len(parsed), sum(len(v) for v in parsed.values())
        manifest = manifest_bytes_for(
            e.name, sha, len(files[e.published.file]), sentences, part=e.part
        )
        (version_dir / MANIFEST).write_bytes(manifest)
        (version_dir / ATTRIBUTION).write_bytes(attribution(e, sha))
        if not fresh:
            (tmp / GITIGNORE).unlink()  # the part's .gitignore covers the version once renamed
        _make_readable(tmp)
        with signals_deferred():  # the version and its .gitignore arrive together
            try:
                os.rename(tmp, bench_dir if fresh else target)
            except OSError:
                if not os.path.lexists(target):
                    raise
                placed = False  # another add of the same part won the race
            else:
                placed = True
                if not fresh:
                    _ensure_gitignore(bench_dir)
        if not placed:
            # What the other run put there arrived whole (a rename): the same files and
            # manifest is what this run wanted (exit 0); anything else is refused.
            shas = {f: hashlib.sha256(d).hexdigest() for f, d in files.items()}
            _check_present(e, root, target, shas, manifest)
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
    import shutil

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


def holdings(top: Path) -> list[tuple[str, str]]:
    """``(what, version)`` for every version one gold store's directory ``top`` holds, of
    every benchmark and every part of published files, in the registry's order
    (``benchie gold path --all``): ``("benchie", "1.1.0")``, ``("lsoie sci", "1.0.0")``."""
    found: list[tuple[str, str]] = []
    for name, b in BENCHMARKS.items():
        places = [("", top / b.store_dir if b.store_dir else top)] if not b.external else []
        if b.published:
            places += [(e.part, e.directory(top)) for e in parts(name)]
        seen: set[Path] = set()
        for part_name, directory in places:
            if directory in seen:
                continue
            seen.add(directory)
            what = f"{name} {part_name}" if part_name else name
            found += [(what, v) for v in GoldStore(directory).versions()]
    return found
