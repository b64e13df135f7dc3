"""The versioned gold store: where gold lives, what each version holds, and its integrity.

Layout (one directory per version, so a repaired 1.1.0 sits beside 1.0.0)::

    gold/
      1.0.0/
        manifest.json          every file: language, facet, sha256, counts
        ATTRIBUTION.md         CC BY 4.0 attribution of the upstream data
        en/default/benchie_gold_annotations_en.txt
        de/default/...  zh/default/...
        en/reference/carb_explicit.txt

Facets ``concat`` and ``minimal`` have no files: they are derived from ``default`` when the
gold is loaded. ``entity`` is a facet of its own file, which upstream has not published; a
version that lacks it says so. Each version is tracked by DVC, not by git, as an output of
its own in the repository's ``gold.dvc`` (``path: gold/<version>``, with ``remote:`` when it
is kept on a remote of its own), so a version kept on a private DVC remote never stops
anyone pulling the public ones (``dvc pull gold/1.1.0`` pulls one version).

A manifest without ``"status": "draft"`` is a *released* version: its files never change
(``gold manifest`` refuses to rewrite it without ``--force``), and a corrected gold is a new
version. The versions this package ships are pinned by their manifests' sha256
(the registry's ``Benchmark.shipped``), which ``gold verify`` checks. docs/gold-store.md
defines all of it.

Every run reads the gold file it scores once, hashes those bytes, refuses them if they
differ from the manifest, and parses the same bytes: a report's ``gold.sha256`` is then both
what was scored and what the manifest promises, even if the file changes during the run.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson

from benchie_cli import LANGUAGES, __version__
from benchie_cli.errors import BenchieError, ExitCode, printable_path
from benchie_cli.gold import dvcfile
from benchie_cli.gold.dirs import ENV_GOLD_DIR, GoldDirs
from benchie_cli.gold.dirs import VERSION as _VERSION
from benchie_cli.gold.dirs import is_version as is_version
from benchie_cli.gold.dvcfile import GOLD_DVC, outputs_in
from benchie_cli.records import Record
from benchie_cli.registry import (
    BENCHMARKS,
    DEFAULT_BENCHMARK,
    DERIVED_FACETS,
    FACET_NAMES,
    FACETS,
    FILE_FACETS,
)
from benchie_cli.textio import atomic_write, display_name, read_whole, sha256_file, without_bom

MANIFEST = "manifest.json"
MANIFEST_SCHEMA = 1


DRAFT = "draft"

_DVC_HINT = (
    "get it with `dvc pull` in a checkout (DVC: `pip install -e '.[dvc]'` there), install "
    'the built wheel, which carries the shipped gold (README, "Install"), '
    f"or point --gold-dir / ${ENV_GOLD_DIR} at a gold directory"
)


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def in_gold_store(path: Path) -> Path | None:
    """The gold version or store that ``path`` (existing or not) lies in, or None: a
    directory on its way up that holds a ``manifest.json`` (a version) or versions of its
    own (a store), or where a DVC repository keeps gold bytes (its cache, a remote on this
    machine). A file written there would be taken for gold, or make a released version
    differ from its manifest."""
    directory = Path(os.path.realpath(path))
    for data in dvcfile.data_directories(directory):
        if data == directory or data in directory.parents:
            return data
    for candidate in (directory, *directory.parents):
        try:
            if (candidate / MANIFEST).is_file() or GoldStore(candidate).versions():
                return candidate
        except OSError:
            continue
    return None


def tracked_versions(root: Path) -> list[str]:
    """Versions of the store ``root`` that its ``gold.dvc`` tracks, pulled or not."""
    names = outputs_in(root)
    return sorted((n for n in names if _VERSION.fullmatch(n)), key=version_key)


def dvc_remote_of(root: Path, version: str) -> str | None:
    """The DVC remote ``gold.dvc`` names for a version's output (``remote:``), if any: for
    hints only. The file is read bounded (64 KiB) and never from a FIFO: never a hang."""
    return outputs_in(root).get(version)


def not_pulled_hint(root: Path, version: str) -> str:
    """How to get a version that DVC tracks but that is not in the working tree: pull its
    output of gold.dvc, ``dvc pull gold/<version>`` (relative to the working directory when
    the version lies below it, as DVC takes it)."""
    remote = dvc_remote_of(root, version)
    kept = f"; it is kept on the DVC remote {remote!r}" if remote else ""
    target = root / version
    with contextlib.suppress(OSError, RuntimeError, ValueError):  # else as given
        target = target.resolve().relative_to(Path.cwd().resolve())
    return (
        f"gold {version} is tracked by DVC ({GOLD_DVC}) but not pulled{kept}: run "
        f"`dvc pull {printable_path(str(target))}`"
    )


class GoldFileEntry(Record):
    """One file of a version's manifest."""

    path: str
    language: str
    facet: str | None
    kind: str  # "gold" (scorable) or "reference" (kept for provenance, e.g. CaRB)
    sha256: str
    bytes: int
    sentences: int | None
    synsets: int | None
    upstream_path: str | None

    @classmethod
    def from_json(cls, data: Any, where: str) -> GoldFileEntry:
        try:
            entry = cls(
                path=str(data["path"]),
                language=str(data["language"]),
                facet=data.get("facet"),
                kind=str(data.get("kind", "gold")),
                sha256=str(data["sha256"]),
                bytes=int(data["bytes"]),
                sentences=data.get("sentences"),
                synsets=data.get("synsets"),
                upstream_path=data.get("upstream_path"),
            )
        except KeyError as exc:
            raise BenchieError(
                f"corrupt manifest: a file entry lacks {exc.args[0]!r}", path=where
            ) from None
        except (TypeError, ValueError, AttributeError):
            raise BenchieError(
                f"corrupt manifest: a file entry is not of the expected form: {data!r:.120}",
                path=where,
            ) from None
        if ".." in Path(entry.path).parts or Path(entry.path).is_absolute():
            raise BenchieError(
                f"corrupt manifest: path {entry.path!r} leaves the version", path=where
            )
        return entry

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "language": self.language,
            "facet": self.facet,
            "kind": self.kind,
            "sha256": self.sha256,
            "bytes": self.bytes,
            "sentences": self.sentences,
            "synsets": self.synsets,
            "upstream_path": self.upstream_path,
        }


class Manifest(Record):
    version: str
    description: str
    license: str
    files: tuple[GoldFileEntry, ...]
    #: False for a draft (``"status": "draft"``): only a draft's manifest may be rewritten.
    released: bool = True

    def gold_entry(self, language: str, facet: str) -> GoldFileEntry | None:
        for entry in self.files:
            if entry.kind == "gold" and entry.language == language and entry.facet == facet:
                return entry
        return None

    def languages(self) -> list[str]:
        return sorted({e.language for e in self.files if e.kind == "gold"}, key=_lang_order)

    def facets(self, language: str) -> list[tuple[str, str | None]]:
        """``(facet, derived_from)`` available for ``language``, in canonical order."""
        out: list[tuple[str, str | None]] = []
        for facet in FACET_NAMES:
            if self.gold_entry(language, facet) is not None:
                out.append((facet, None))
            elif facet in DERIVED_FACETS and self.gold_entry(language, DERIVED_FACETS[facet]):
                out.append((facet, DERIVED_FACETS[facet]))
        return out

    def as_json(self) -> dict[str, Any]:
        """The manifest as written. Only a draft says its status, so that a released
        manifest keeps the bytes it had before drafts existed (its sha256 is pinned)."""
        doc: dict[str, Any] = {
            "schema": MANIFEST_SCHEMA,
            "version": self.version,
            "description": self.description,
            "license": self.license,
        }
        if not self.released:
            doc["status"] = DRAFT
        doc["derived_facets"] = DERIVED_FACETS
        doc["files"] = [e.as_json() for e in self.files]
        return doc


def _lang_order(lang: str) -> tuple[int, str]:
    return (LANGUAGES.index(lang) if lang in LANGUAGES else len(LANGUAGES), lang)


class ResolvedGold(Record):
    """The gold file one run scores against, with everything a report must say about it."""

    version: str  # a store version, or "file" for --gold-file
    language: str
    facet: str
    derived_from: str | None
    path: Path
    display_path: str  # relative to the store (stable across machines), or as given
    sha256: str
    #: The bytes read, whose hash is ``sha256``: parse these, never the file again.
    data: bytes
    #: The manifest that vouched for the file (store gold only): an input of the run too.
    manifest: Path | None = None

    @property
    def inputs(self) -> list[Path]:
        """Every file this gold was read from, which no output may overwrite."""
        return [self.path] if self.manifest is None else [self.path, self.manifest]

    def with_facet(self, facet: str) -> ResolvedGold:
        """The same bytes scored under another facet derived from the same file."""
        return self._replace(facet=facet, derived_from=DERIVED_FACETS.get(facet))

    def __repr__(self) -> str:
        """Every field, the bytes by their size (a gold file is megabytes). (Equality
        compares the bytes too: equal hashes mean equal bytes anyway.)"""
        shown = ", ".join(
            f"{k}={v!r}" for k, v in zip(self._fields, self, strict=True) if k != "data"
        )
        return f"ResolvedGold({shown}, data=<{len(self.data):,} bytes>)"


class GoldStore:
    """Read access to one benchmark's gold: its versions in the stores of the order
    (:mod:`benchie_cli.gold.dirs`), each taken from the first store holding it; or in one
    directory. Manifests are parsed on first use."""

    def __init__(
        self,
        root: Path | GoldDirs,
        *,
        benchmark: str = "benchie",
        pins: Mapping[str, str] | None = None,
    ) -> None:
        #: The directories looked in, in order (one for a single directory).
        self.layers: tuple[Path, ...] = root.paths if isinstance(root, GoldDirs) else (root,)
        #: The stores of the order, if given as one (their sources name them in messages).
        self.dirs = root if isinstance(root, GoldDirs) else None
        #: Whose versions these are: BenchIE's (``gold/``) or CaRB's (``gold/carb/``).
        self.benchmark = benchmark
        #: The sha256 of the manifests of the versions benchie ships (or, for published
        #: files a user adds, of the manifest it writes for them), by version.
        self.shipped: Mapping[str, str] = BENCHMARKS[benchmark].shipped if pins is None else pins
        #: Whether its versions are published files a user added (``benchmark add``): an
        #: external benchmark's store, or a part of published files under a shipped one's.
        self.added = pins is not None or BENCHMARKS[benchmark].external
        self._manifests: dict[str, Manifest] = {}
        #: The sha256 of each manifest's bytes, as parsed (not read again to be checked).
        self._manifest_sha256: dict[str, str] = {}
        #: Gold files read so far, by path: facets derived from one file share one read.
        self._read: dict[Path, tuple[bytes, str]] = {}

    def _scan(self) -> dict[str, Path]:
        """Each version's directory: the first layer's that holds it (looked up each time:
        a command may add a version to a store it reads)."""
        where: dict[str, Path] = {}
        for layer in reversed(self.layers):
            try:
                names = os.listdir(layer)
            except OSError:  # absent, not a directory, or not readable: holds nothing here
                continue
            for name in names:
                if _VERSION.fullmatch(name) and os.path.isdir(layer / name):
                    where[name] = layer / name
        return where

    @property
    def root(self) -> Path:
        """The directory this store is named by in messages: the first layer holding a
        version, else the first layer."""
        where = self._scan()
        for layer in self.layers:
            if any(d.parent == layer for d in where.values()):
                return layer
        return self.layers[0]

    def directory(self, version: str) -> Path:
        """The directory of ``version``: in the first layer holding it (else the first
        layer's, which does not exist)."""
        return self._scan().get(version, self.layers[0] / version)

    @property
    def relative(self) -> str:
        """Where it lies below the stores' tops, as reports name it (``oie2016``,
        ``lsoie/sci``; empty for BenchIE's own or a single directory)."""
        return "" if self.dirs is None else self.dirs.relative

    def path_of(self, name: str) -> Path:
        """The path of a file :meth:`verify` names (``1.1.0/en/default/...``)."""
        return self.directory(name.split("/", 1)[0]).parent / name

    def tracked(self) -> list[str]:
        """Versions that a ``gold.dvc`` beside one of the layers tracks, pulled or not."""
        found: set[str] = set()
        for layer in self.layers:
            found.update(tracked_versions(layer))
        return sorted(found, key=version_key)

    def tracked_root(self, version: str) -> Path:
        """The layer whose ``gold.dvc`` tracks ``version`` (for the hint that pulls it)."""
        return next((la for la in self.layers if version in tracked_versions(la)), self.root)

    def versions(self) -> list[str]:
        return sorted(self._scan(), key=version_key)

    def require_versions(self) -> list[str]:
        """The versions, or the error every command gives for a store without any."""
        versions = self.versions()
        if versions:
            return versions
        tracked = self.tracked()
        if tracked:
            raise BenchieError(
                f"no gold version is pulled into {printable_path(str(self.root))} "
                f"(DVC tracks {', '.join(tracked)}): {_DVC_HINT}"
            )
        if self.dirs is not None and self.dirs.dirs:
            raise BenchieError(f"no gold in the gold stores ({self.dirs.where()}): {_DVC_HINT}")
        if self.dirs is not None:
            raise BenchieError(f"no gold directory found: {_DVC_HINT}")
        raise BenchieError(
            f"{printable_path(str(self.root))} is not a gold store: "
            "no <version>/manifest.json in it"
        )

    def shipped_mismatch(self, version: str) -> str | None:
        """Why a version numbered like one this package ships is not that version, if so."""
        pinned = self.shipped.get(version)
        if pinned is None:
            return None
        self.manifest(version)
        sha = self._manifest_sha256[version]
        if sha == pinned:
            return None
        if self.added:
            where = printable_path(str(self.directory(version)))
            return (
                f"manifest sha256 {sha} is not that of the manifest `benchie benchmark add` "
                f"writes for the published file ({pinned}): the added copy's manifest was "
                f"edited; to restore it, remove {where} and add the published file again "
                f"(`benchie benchmark add {self.benchmark} FILE`)"
            )
        return (
            f"manifest sha256 {sha} is not that of the gold {version} benchie-cli "
            f"{__version__} released ({pinned}): released gold never changes; give a "
            "corrected gold a new version (`benchie gold new`)"
        )

    def manifest(self, version: str) -> Manifest:
        if version in self._manifests:
            return self._manifests[version]
        if not _VERSION.fullmatch(version) or not self.directory(version).is_dir():
            if _VERSION.fullmatch(version) and version in self.tracked():
                raise BenchieError(not_pulled_hint(self.tracked_root(version), version))
            versions = self.require_versions()
            raise BenchieError(
                f"unknown gold version {printable_path(version)!r} in "
                f"{printable_path(str(self.root))} "
                f"(available: {', '.join(versions)})"
            )
        path = self.directory(version) / MANIFEST
        where = str(path)
        if not os.path.lexists(path):
            raise BenchieError(
                "gold version has no manifest.json: for a draft laid out by hand, write it "
                f"with `benchie gold manifest {printable_path(str(self.directory(version)))}`",
                path=where,
            )
        if not path.is_file():  # a FIFO would block the read until a writer came
            raise BenchieError("corrupt manifest: not a regular file", path=where)
        raw = read_whole(where, what="manifest")  # bounded
        try:
            data = orjson.loads(without_bom(raw))
        except orjson.JSONDecodeError as exc:
            raise BenchieError(f"corrupt manifest: not JSON ({exc})", path=where) from None
        if not isinstance(data, dict) or data.get("schema") != MANIFEST_SCHEMA:
            raise BenchieError(
                f"corrupt manifest: expected an object with schema {MANIFEST_SCHEMA}", path=where
            )
        if data.get("version") != version:
            raise BenchieError(
                f"corrupt manifest: says version {data.get('version')!r}, directory is {version!r}",
                path=where,
            )
        files = data.get("files")
        if not isinstance(files, list):
            raise BenchieError("corrupt manifest: 'files' is not a list", path=where)
        status = data.get("status", "released")
        if status not in ("released", DRAFT):
            raise BenchieError(
                f"corrupt manifest: status {status!r} is neither 'released' nor 'draft'",
                path=where,
            )
        manifest = Manifest(
            version=version,
            description=str(data.get("description", "")),
            license=str(data.get("license", "")),
            files=tuple(GoldFileEntry.from_json(f, where) for f in files),
            released=status != DRAFT,
        )
        self._manifests[version] = manifest
        self._manifest_sha256[version] = hashlib.sha256(raw).hexdigest()
        return manifest

    def resolve(self, version: str, language: str, facet: str) -> ResolvedGold:
        """The file behind (version, language, facet), hashed and checked against the manifest."""
        manifest = self.manifest(version)
        if language not in manifest.languages():
            raise BenchieError(
                f"gold {version} has no language {language!r} "
                f"(available: {', '.join(manifest.languages())})"
            )
        derived_from = DERIVED_FACETS.get(facet)
        entry = manifest.gold_entry(language, derived_from or facet)
        if entry is None:
            hint = FACETS[facet].missing_hint if facet in FACETS else None
            if hint is not None:
                raise BenchieError(
                    f"gold {version} has no {facet}-facet gold for {language!r}: {hint}"
                )
            raise BenchieError(f"gold {version} has no {facet!r} file for {language!r}")
        return self._checked(version, manifest, entry, facet, derived_from)

    def reference(self, version: str, language: str, name: str) -> ResolvedGold:
        """The reference file ``<language>/reference/<name>`` of ``version`` (CaRB's gold,
        for ``score --metric carb``), read once, hashed and checked against the manifest
        like a gold file; its ``facet`` is ``"reference"``. A version without it is an
        error (exit 2)."""
        manifest = self.manifest(version)
        rel = f"{language}/reference/{name}"
        for entry in manifest.files:
            if entry.kind == "reference" and entry.path == rel:
                return self._checked(version, manifest, entry, "reference", None)
        raise BenchieError(f"gold {version} has no reference file {rel}")

    def listed(self, version: str, kind: str, facet: str) -> ResolvedGold:
        """The one file of ``version`` listed with this ``kind`` and ``facet`` (a CaRB split's
        gold or sentences), read once, hashed and checked against the manifest."""
        manifest = self.manifest(version)
        for entry in manifest.files:
            if entry.kind == kind and entry.facet == facet:
                return self._checked(version, manifest, entry, facet, None)
        raise BenchieError(f"gold {version} has no {kind} file for {facet!r}")

    def _checked(
        self,
        version: str,
        manifest: Manifest,
        entry: GoldFileEntry,
        facet: str,
        derived_from: str | None,
    ) -> ResolvedGold:
        """The file of ``entry``, read once, its sha256 compared with the manifest's."""
        language = entry.language
        path = self.directory(version) / entry.path
        if not path.is_file():
            raise BenchieError(
                f"gold file missing: {display_name(str(path))} (listed in the manifest); "
                "run `benchie gold verify`"
            )
        if path not in self._read:
            data = read_whole(str(path), what="gold file")
            self._read[path] = data, hashlib.sha256(data).hexdigest()
        data, sha = self._read[path]
        if sha != entry.sha256:
            fix = (
                "run `benchie gold verify`"
                if manifest.released
                else "a draft: after an edit, run "
                f"`benchie gold manifest {printable_path(str(self.directory(version)))}`"
            )
            raise BenchieError(
                f"gold file {display_name(str(path))} differs from its manifest (sha256 "
                f"{sha[:12]}…, manifest {entry.sha256[:12]}…); {fix}",
                exit_code=ExitCode.FAILED,
            )
        mismatch = self.shipped_mismatch(version)
        if mismatch is not None:  # a shipped version rewritten with --force, or by hand
            raise BenchieError(
                f"gold {version}: {mismatch}",
                path=str(self.directory(version) / MANIFEST),
                exit_code=ExitCode.FAILED,
            )
        return ResolvedGold(
            version,
            language,
            facet,
            derived_from,
            path,
            f"{version}/{entry.path}",
            sha,
            data,
            self.directory(version) / MANIFEST,
        )

    def verify(self, versions: list[str] | None = None) -> list[tuple[str, str]]:
        """``(file, problem)`` for every file that is missing, differs from its manifest, or
        lies in a version's ``<lang>/`` tree without being listed (the manifest must describe
        the version exactly, or a report's provenance would be incomplete)."""
        problems: list[tuple[str, str]] = []
        for version in versions or self.versions():
            manifest = self.manifest(version)
            listed = {entry.path for entry in manifest.files}
            try:
                found = sorted((self.directory(version)).glob("*/**/*"))
            except RecursionError:
                problems.append((version, "a directory tree too deep to list; remove it"))
                found = []
            for path in found:
                rel = path.relative_to(self.directory(version)).as_posix()
                if path.is_file() and rel not in listed:
                    problems.append((f"{version}/{rel}", "not listed in the manifest"))
            for entry in manifest.files:
                path = self.directory(version) / entry.path
                name = f"{version}/{entry.path}"
                if not path.is_file():
                    problems.append((name, "missing"))
                    continue
                sha = sha256_file(path)
                if sha != entry.sha256:
                    problems.append((name, f"sha256 {sha} != manifest {entry.sha256}"))
        return problems


def resolve_gold_file(path: str, language: str, facet: str) -> ResolvedGold:
    """An annotation file outside the store (``--gold-file``): an organiser's own gold.

    ``concat`` and ``minimal`` are derived from it as from any default-facet file.
    """
    data = read_whole(path, what="gold file")
    sha = hashlib.sha256(data).hexdigest()
    return ResolvedGold(
        "file",
        language,
        facet,
        DERIVED_FACETS.get(facet),
        Path(path),
        display_name(path),
        sha,
        data,
    )


def build_manifest(
    version_dir: Path,
    *,
    version: str | None = None,
    description: str | None = None,
    license: str | None = None,
    released: bool | None = None,
) -> Manifest:
    """A manifest for a version directory laid out as ``<lang>/<facet>/<file>``.

    ``version`` defaults to the directory's name (``gold new`` builds in a temporary
    directory). Files under ``<lang>/reference/`` are kept for provenance but not scored.
    Description, licence, status and upstream paths of an existing manifest are kept, so
    re-running only refreshes hashes and counts; a version without one is a draft unless
    ``released`` says otherwise.
    """
    from benchie_cli.gold.parse import parse_gold_bytes  # the store itself does not parse gold

    version = version or version_dir.resolve().name
    if not _VERSION.fullmatch(version):
        raise BenchieError(f"a gold version is named MAJOR.MINOR.PATCH, not {version!r}")
    for option, text in (("--description", description), ("--license", license)):
        try:
            (text or "").encode("utf-8")
        except UnicodeEncodeError:  # bytes of the command line that are not UTF-8
            raise BenchieError(
                f"{option}: not UTF-8 text ({printable_path(text or '')!r})"
            ) from None
    previous: dict[str, Any] = {}
    old_path = version_dir / MANIFEST
    if old_path.is_file():
        try:
            previous = orjson.loads(read_whole(str(old_path), what="manifest"))
        except orjson.JSONDecodeError:
            previous = {}
        if not isinstance(previous, dict):
            previous = {}
    old_files = previous.get("files")
    if not isinstance(old_files, list) or not all(isinstance(f, dict) for f in old_files):
        old_files = []  # only prose and provenance are kept from it: a broken list has none
    if released is None:
        released = bool(previous) and previous.get("status") != DRAFT
    upstream = {
        f["path"]: f.get("upstream_path") for f in old_files if isinstance(f.get("path"), str)
    }
    entries = []
    for path in sorted(version_dir.glob("*/*/*")):
        if not path.is_file():
            continue
        rel = path.relative_to(version_dir).as_posix()
        if printable_path(rel) != rel:  # a manifest is JSON: its paths must be text
            raise BenchieError(
                f"file name {printable_path(rel)} is not UTF-8 text; rename it",
                path=str(version_dir),
            )
        language, facet_dir, name = rel.split("/")
        if any(part.startswith(".") for part in (language, facet_dir, name)):
            raise BenchieError(
                f"hidden file {rel}: remove it (an editor's backup would be listed, and one "
                "in a facet's directory scored)",
                path=str(version_dir),
            )
        if language not in LANGUAGES or facet_dir not in (*FILE_FACETS, "reference"):
            raise BenchieError(
                f"unexpected file {rel}: gold files go in <{'|'.join(LANGUAGES)}>/"
                f"<{'|'.join(FILE_FACETS)}|reference>/",
                path=str(version_dir),
            )
        kind = "reference" if facet_dir == "reference" else "gold"
        data = read_whole(str(path), what="gold file")  # hashed and counted from one read
        sentences = synsets = None
        if kind == "gold":
            gold = parse_gold_bytes(data, display_name(str(path)))
            sentences, synsets = len(gold.sentences), gold.synset_count
        entries.append(
            GoldFileEntry(
                path=rel,
                language=language,
                facet=None if kind == "reference" else facet_dir,
                kind=kind,
                sha256=hashlib.sha256(data).hexdigest(),
                bytes=len(data),
                sentences=sentences,
                synsets=synsets,
                upstream_path=upstream.get(rel),
            )
        )
    facets = [(e.language, e.facet) for e in entries if e.kind == "gold"]
    twice = sorted(
        {f"{lang}/{facet}/" for lang, facet in facets if facets.count((lang, facet)) > 1}
    )
    if twice:
        raise BenchieError(
            f"more than one gold file in {', '.join(twice)}: one file per language and facet",
            path=str(version_dir),
        )
    if not any(e.kind == "gold" for e in entries):
        raise BenchieError("no gold file found under <lang>/<facet>/", path=str(version_dir))
    return Manifest(
        version=version,
        description=description or str(previous.get("description", "")),
        license=license or str(previous.get("license", "")),
        files=tuple(entries),
        released=released,
    )


def is_released(version_dir: Path) -> bool:
    """Whether the version in ``version_dir`` has a manifest that is not a draft's. An
    unreadable manifest counts as released: the store is never written on a guess."""
    path = version_dir / MANIFEST
    if not os.path.lexists(path):
        return False
    if not path.is_file():
        return True
    try:
        data = orjson.loads(read_whole(str(path), what="manifest"))
    except (BenchieError, orjson.JSONDecodeError):
        return True
    return not (isinstance(data, dict) and data.get("status") == DRAFT)


def write_manifest(version_dir: Path, manifest: Manifest, *, force: bool = False) -> None:
    """Write ``manifest`` into ``version_dir``, which every writer of the store goes through:
    a released version's manifest (and so its files' hashes) is never rewritten unless
    ``force``, since published reports name it."""
    pinned = BENCHMARKS[DEFAULT_BENCHMARK].shipped.get(manifest.version)
    data = manifest_bytes(manifest)
    if pinned is not None and hashlib.sha256(data).hexdigest() != pinned:
        raise BenchieError(
            f"gold {manifest.version} is shipped with benchie-cli: it never changes, even "
            "with --force; put corrected gold in a new version with `benchie gold new`",
            path=str(version_dir / MANIFEST),
        )
    if not force and is_released(version_dir):
        raise BenchieError(
            f"gold {manifest.version} is released: its manifest never changes (reports name "
            "its files' sha256); put corrected gold in a new version with `benchie gold new`, "
            "or pass --force if this version was never published",
            path=str(version_dir / MANIFEST),
        )
    atomic_write(str(version_dir / MANIFEST), data)


def manifest_bytes(manifest: Manifest) -> bytes:
    """The manifest as committed: indented, keys in a fixed order, trailing newline."""
    return orjson.dumps(manifest.as_json(), option=orjson.OPT_INDENT_2) + b"\n"


def draft_warning(version: str) -> str:
    """What a run against draft ``version`` says (once): its files may still change under
    the same version number, and only the report's sha256 then tells two runs apart."""
    return (
        f"warning: gold {version} is a draft (`benchie gold release {version}` freezes it); "
        "the report's gold sha256 pins the files scored"
    )
