"""The compiled gold index, kept on disk between runs, and never trusted blindly.

Parsing and indexing the English gold costs ~0.13 s; loading the same index with marshal
costs ~4 ms. The index is a pure function of three things, and its file is named by all
three: the sha256 of the gold bytes that were parsed, the facet, and a fingerprint of the
code that builds it (the source of the parsing and matching modules).

An entry is a header line and a marshal payload::

    benchie-index<TAB>FORMAT<TAB>GOLD_SHA256<TAB>FACET<TAB>CODE<TAB>PAYLOAD_SHA256<LF>payload

On load, every header field must equal what this run expects, the payload must hash to
its sha256 (0.6 ms for the English index), and the unmarshalled index must pass
:func:`~benchie_cli.benchmarks.benchie.matching.check_data`, which rejects any shape the
scorer could trip on.
Anything else means the entry is rebuilt from the gold and replaced: a damaged, edited,
truncated or foreign entry costs time, never a wrong score and never a traceback.

The cache is also no way in, and where it lives, how its files are read and written, is
:mod:`benchie_cli.disk_cache`'s (shared with the memos of other benchmarks).
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
from functools import cache
from pathlib import Path

from benchie_cli.benchmarks.benchie.matching import CompiledGold, check_data
from benchie_cli.disk_cache import (
    ENV_CACHE_DIR,
    INDEX_SUFFIX,
    cache_dir,
    off_reason,
    read_entry,
    source_fingerprint,
    starts_with,
    usable_dir,
    write_entry,
)
from benchie_cli.errors import BenchieError
from benchie_cli.gold.parse import Gold, parse_gold_bytes
from benchie_cli.gold.store import GoldStore, ResolvedGold, in_gold_store
from benchie_cli.textio import display_name

#: The modules (relative to the package) whose code decides what an index holds: the
#: matcher that compiles it and every module it imports, transitively (a test recomputes
#: this closure from the sources, so a new import cannot be left out).
SOURCES = (
    "benchmarks/benchie/matching.py",
    "registry.py",
    "gold/parse.py",
    "slots.py",
    "errors.py",
    "textio.py",
    "stops.py",
    "records.py",
)

#: The entry layout; a change of layout changes this and the suffix, so old entries are
#: never read as new ones.
FORMAT = 2
_MAGIC = b"benchie-index"
#: Entries beyond this size are not read (the English index is ~1.3 MB).
MAX_ENTRY_BYTES = 256 << 20


@cache
def code_fingerprint() -> str:
    """Hash of the package's version and the modules whose code decides what the index
    holds."""
    package = Path(__file__).resolve().parents[2]
    return source_fingerprint(*(package / name for name in SOURCES))


def is_index(path: Path) -> bool:
    """Whether ``path`` is a file that starts as an index entry does."""
    return starts_with(path, _MAGIC)


def entry_path(directory: Path, gold: ResolvedGold) -> Path:
    return directory / f"{gold.sha256}-{gold.facet}-{code_fingerprint()}{INDEX_SUFFIX}"


def _header(gold: ResolvedGold, payload_sha256: str) -> bytes:
    fields = (str(FORMAT), gold.sha256, gold.facet, code_fingerprint(), payload_sha256)
    return _MAGIC + b"".join(b"\t" + f.encode() for f in fields) + b"\n"


def encode_entry(gold: ResolvedGold, compiled: CompiledGold) -> bytes:
    """The bytes of the entry for ``compiled``, the index of ``gold``."""
    payload = marshal.dumps(compiled.to_data())
    return _header(gold, hashlib.sha256(payload).hexdigest()) + payload


def decode_entry(gold: ResolvedGold, data: bytes) -> CompiledGold | None:
    """The index an entry holds if every check passes, else None (rebuild)."""
    end = data.find(b"\n", 0, 512)
    if end < 0:
        return None
    header, payload = data[: end + 1], data[end + 1 :]
    if header != _header(gold, hashlib.sha256(payload).hexdigest()):
        return None
    try:
        content = marshal.loads(payload)
        check_data(content, gold.facet)
        return CompiledGold.from_data(content)
    except Exception:  # any damage the digest let through: rebuild, never fail the run
        return None


def _agrees(compiled: CompiledGold, parsed: Gold) -> bool:
    """Whether a cached index has the sentences, synsets and triples of the parsed gold: a
    caller that uses both (``analyze`` explains errors with the parsed triples) must never
    pair an index with other gold."""
    sentences = list(parsed.sentences.values())
    return (
        compiled.findings == parsed.findings()
        and compiled.sent_ids == [s.sent_id for s in sentences]
        and compiled.synsets == [len(s.clusters) for s in sentences]
        and [len(i.cluster_of) for i in compiled.indexes]
        == [sum(len(c.triples) for c in s.clusters) for s in sentences]
    )


def load_compiled(
    gold: ResolvedGold, parsed: Gold | None = None, *, cached: bool = True
) -> CompiledGold:
    """The compiled index of ``gold`` from the cache, or built from ``gold.data`` (the bytes
    that were hashed) and cached; a caller that has parsed them passes the result.
    ``cached=False`` builds it from the bytes whatever the cache holds, and writes nothing:
    ``verify`` re-derives a report independently of the cache that the run may have used."""
    if not cached:
        if parsed is None:
            parsed = parse_gold_bytes(gold.data, gold.display_path)
        return CompiledGold.build(parsed, gold.facet)
    directory = usable_dir()  # (never one inside a gold store: it would add files to a version)
    path = entry_path(directory, gold) if directory is not None else None
    if path is not None:
        data = read_entry(path, MAX_ENTRY_BYTES)
        compiled = decode_entry(gold, data) if data is not None else None
        if compiled is not None and (parsed is None or _agrees(compiled, parsed)):
            return compiled
    if parsed is None:
        parsed = parse_gold_bytes(gold.data, gold.display_path)
    compiled = CompiledGold.build(parsed, gold.facet)
    if path is not None:
        with contextlib.suppress(OSError):  # a cache we cannot write only costs time
            write_entry(path, encode_entry(gold, compiled))
    return compiled


def compile_store(store: GoldStore, versions: list[str]) -> list[Path]:
    """Compile every language and facet of ``versions`` into the cache: run once where
    runs are many and first runs matter (a container image at build time)."""
    directory = cache_dir()
    if directory is None:
        raise BenchieError(f"the index cache is off ({off_reason()}); nothing to compile into")
    inside = in_gold_store(directory)
    if inside is not None:
        raise BenchieError(
            f"the index cache directory {display_name(str(directory))} is inside the gold "
            f"store {display_name(str(inside))}: set ${ENV_CACHE_DIR} to a directory outside it"
        )
    written = []
    for version in versions:
        manifest = store.manifest(version)
        for language in manifest.languages():
            for facet, _ in manifest.facets(language):
                gold = store.resolve(version, language, facet)
                load_compiled(gold)
                path = entry_path(directory, gold)
                data = read_entry(path, MAX_ENTRY_BYTES)
                if data is None or decode_entry(gold, data) is None:
                    raise BenchieError(f"could not write the index cache in {directory}")
                written.append(path)
    return written
