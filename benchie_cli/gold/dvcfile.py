"""``gold.dvc``: the one DVC file of the gold, with an output per version of every benchmark.

DVC writes it as YAML, in this form (paths relative to the file's directory)::

    outs:
    - md5: 77451ca33c05bc0a1aec34820e5cfd4d.dir
      size: 1441424
      nfiles: 6
      hash: md5
      path: gold/1.1.0
    - md5: ...
      path: gold/2.0.0
      remote: private        a version kept on a DVC remote of its own

``dvc pull`` restores every output (``dvc pull gold/1.1.0`` one), each from the remote its
``remote:`` names, else the repository's default. This module reads the file without DVC (a
clone that never installed it still knows which versions exist and where they are kept),
bounded and never blocking, and rewrites one output while every other line of the file
stays as it was (``gold new`` and ``gold release``, which write the file atomically).

The gold.dvc of a store is the nearest one at or above the store's directory, up to the
root of the DVC repository that holds it (the directory with ``.dvc/``): the repository's
``gold.dvc`` for ``gold/`` and for ``gold/carb/``, or a store's own in a repository of
private gold only.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from benchie_cli.errors import BenchieError
from benchie_cli.records import Record
from benchie_cli.textio import display_name

GOLD_DVC = "gold.dvc"
#: The most of gold.dvc ever read: a few lines an output, so some 500 versions. Read with
#: O_NONBLOCK and only from a regular file: a FIFO or a device never hangs a command.
MAX_BYTES = 65536

_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?:\s+(.*))?$")
#: The keys of an output that describe its content, which `dvc add` writes anew.
_CONTENT_KEYS = frozenset(
    {"md5", "etag", "checksum", "size", "nfiles", "isexec", "hash", "files", "version_id", "cloud"}
)


class Output(Record):
    """One output, as ``(key, lines)`` groups: the first line of a group is ``key: value``,
    the others (a nested value) as written, without the output's own indentation."""

    keys: tuple[tuple[str, tuple[str, ...]], ...]

    def value(self, key: str) -> str | None:
        """A scalar ``key: value`` of the output, unquoted; None if absent or empty."""
        for name, lines in self.keys:
            if name == key:
                return _scalar(lines[0].partition(":")[2])
        return None

    @property
    def path(self) -> str | None:
        return self.value("path")

    @property
    def remote(self) -> str | None:
        return self.value("remote")

    def with_key(self, key: str, value: str | None) -> Output:
        """The output with ``key: value`` set in place (appended if new), or removed."""
        kept = [(k, lines) for k, lines in self.keys if k != key or value is not None]
        if value is None:
            return self._replace(keys=tuple(kept))
        line = (f"{key}: {value}",)
        if any(k == key for k, _ in kept):
            return self._replace(keys=tuple((k, line if k == key else v) for k, v in kept))
        return self._replace(keys=(*kept, (key, line)))

    def keeping(self, old: Output) -> Output:
        """The output with the settings of ``old`` it lacks (``remote``, ``push``, ...)
        added: an updated output keeps what was said of it besides its content's hash."""
        own = {k for k, _ in self.keys}
        kept = tuple((k, v) for k, v in old.keys if k not in own and k not in _CONTENT_KEYS)
        return self._replace(keys=self.keys + kept)


class DvcFile(Record):
    """A DVC file as lines: those before its outputs (``outs:`` included), the outputs,
    the lines after them. Rendering an unchanged file gives its bytes back."""

    head: tuple[str, ...]
    outs: tuple[Output, ...]
    tail: tuple[str, ...]
    #: Columns before an output's ``-`` (DVC writes 0; a file indented by hand, 2).
    indent: int = 0

    def render(self) -> bytes:
        item, more = " " * self.indent + "- ", " " * (self.indent + 2)
        lines = list(self.head)
        for out in self.outs:
            for n, line in enumerate(line for _, group in out.keys for line in group):
                lines.append((item if n == 0 else more) + line)
        lines.extend(self.tail)
        return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""

    def position(self, path: str) -> int | None:
        """The position of the output whose path is ``path`` (normalised), if any."""
        wanted = os.path.normpath(path)
        for n, out in enumerate(self.outs):
            if out.path is not None and os.path.normpath(out.path) == wanted:
                return n
        return None

    def with_output(self, out: Output) -> DvcFile:
        """The file with ``out`` in place of the output of the same path, else appended."""
        assert out.path is not None
        at = self.position(out.path)
        outs = list(self.outs)
        if at is None:
            outs.append(out)
        else:
            outs[at] = out
        head = self.head if any(h.rstrip() == "outs:" for h in self.head) else (*self.head, "outs:")
        return self._replace(head=head, outs=tuple(outs))

    def without(self, path: str) -> DvcFile:
        at = self.position(path)
        if at is None:
            return self
        return self._replace(outs=self.outs[:at] + self.outs[at + 1 :])


def _scalar(raw: str) -> str | None:
    """A YAML scalar as DVC writes one: plain, or single- or double-quoted."""
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'") or None
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"').replace("\\\\", "\\") or None
    value = value.split(" #", 1)[0].rstrip()  # a comment after a plain scalar
    return value or None


def parse(text: str) -> DvcFile | None:
    """The outputs of a DVC file's text, or None if they are not in the block form DVC
    writes (``outs:`` at the left margin, then ``- key: value`` items)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    start = next((n for n, line in enumerate(lines) if line.rstrip() == "outs:"), None)
    if start is None:
        return DvcFile(tuple(lines), (), ())
    first = next((n for n in range(start + 1, len(lines)) if lines[n].strip()), len(lines))
    marker = re.match(r"( *)- ", lines[first]) if first < len(lines) else None
    if marker is None:
        if first < len(lines) and lines[first].startswith(" "):
            return None  # `outs:` followed by something other than a list of outputs
        return DvcFile(tuple(lines[: start + 1]), (), tuple(lines[start + 1 :]))
    indent = len(marker.group(1))
    item, more = " " * indent + "- ", " " * (indent + 2)
    groups: list[list[str]] = []
    n = start + 1
    while n < len(lines):
        line = lines[n]
        if line.startswith(item):
            groups.append([line[len(item) :]])
        elif line.startswith(more) and groups:
            groups[-1].append(line[len(more) :])
        elif n < first:  # blank lines between `outs:` and the first output
            pass
        else:
            break
        n += 1
    outs: list[Output] = []
    for group in groups:
        keys: list[tuple[str, list[str]]] = []
        for line in group:
            match = _KEY.match(line)
            if match is not None and not line.startswith((" ", "#")):
                keys.append((match.group(1), [line]))
            elif keys:
                keys[-1][1].append(line)  # a nested value or a comment
            else:
                return None
        outs.append(Output(tuple((k, tuple(v)) for k, v in keys)))
    return DvcFile(tuple(lines[: start + 1]), tuple(outs), tuple(lines[n:]), indent)


def read_bytes(path: Path) -> bytes | None:
    """At most ``MAX_BYTES + 1`` bytes of ``path`` if it is a regular file, else None (no
    such file, a directory, a FIFO: never a hang). Raises OSError if it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, MAX_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def outputs(dvc_file: Path) -> list[Output]:
    """The outputs of ``dvc_file`` for hints and listings: none if it is absent, unreadable
    or not in DVC's form. A file beyond ``MAX_BYTES`` is read up to there, without its last
    output (which may be cut)."""
    try:
        data = read_bytes(dvc_file)
    except OSError:
        return []
    if data is None:
        return []
    cut = len(data) > MAX_BYTES
    text = data[:MAX_BYTES].decode("utf-8", "replace")
    parsed = parse(text[: text.rfind("\n") + 1] if cut else text)
    if parsed is None:
        return []
    return list(parsed.outs[:-1] if cut else parsed.outs)


def load(dvc_file: Path) -> DvcFile:
    """``dvc_file`` whole, to be rewritten; an empty one if it does not exist yet. Anything
    that could not be written back unchanged is an error naming it."""
    shown = display_name(str(dvc_file))
    try:
        data = read_bytes(dvc_file)
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=shown) from None
    if data is None:
        if os.path.lexists(dvc_file):
            raise BenchieError("not a regular file", path=shown)
        return DvcFile((), (), ())
    if len(data) > MAX_BYTES:
        raise BenchieError(f"larger than {MAX_BYTES >> 10} KiB: not a DVC file", path=shown)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BenchieError("not UTF-8 text: not a DVC file", path=shown) from None
    parsed = parse(text)
    if parsed is None or any(out.path is None for out in parsed.outs):
        raise BenchieError(
            "its outputs are not in the form DVC writes (`outs:`, then `- key: value` items "
            "each with a `path:`)",
            path=shown,
        )
    return parsed


def find(store_root: Path) -> Path | None:
    """The gold.dvc of the store ``store_root``, if there is one: the nearest at or above
    it, up to the root of its DVC repository."""
    try:
        start = store_root.resolve()
    except (OSError, RuntimeError):
        return None
    for directory in (start, *start.parents):
        if os.path.lexists(directory / GOLD_DVC):
            return directory / GOLD_DVC
        if os.path.isdir(directory / ".dvc"):
            return None
    return None


def outputs_in(store_root: Path, dvc_file: Path | None = None) -> dict[str, str | None]:
    """``name -> remote`` of each output of the store's gold.dvc (or of ``dvc_file``) that
    is a directory right inside ``store_root``, pulled or not."""
    dvc_file = dvc_file if dvc_file is not None else find(store_root)
    if dvc_file is None:
        return {}
    try:
        root = store_root.resolve()
        base = dvc_file.parent.resolve()
    except (OSError, RuntimeError):
        return {}
    found: dict[str, str | None] = {}
    for out in outputs(dvc_file):
        path = out.path
        if path is None:
            continue
        full = Path(os.path.normpath(base / path))
        try:
            parent = full.parent.resolve()
        except (OSError, RuntimeError):
            continue
        if parent == root and full.name not in ("", ".", ".."):
            found[full.name] = out.remote
    return found


def tracked_paths(store_root: Path) -> list[Path]:
    """Every output of the store's gold.dvc, resolved: what DVC tracks as a whole."""
    dvc_file = find(store_root)
    if dvc_file is None:
        return []
    base = dvc_file.parent
    found = []
    for out in outputs(dvc_file):
        if out.path is not None:
            try:
                found.append((base / out.path).resolve())
            except (OSError, RuntimeError):
                continue
    return found


#: A remote's ``url`` in DVC's config (``.dvc/config``, ``.dvc/config.local``).
_URL = re.compile(r"^\s*url\s*=\s*(.+?)\s*$", re.MULTILINE)


def data_directories(path: Path) -> list[Path]:
    """Where the DVC repository that holds ``path`` keeps gold bytes besides the store:
    its ``.dvc/`` directory (the cache) and every remote that is a directory of this
    machine (the embedded ``dvc-store/``). A file written there would be pulled as gold;
    none at all outside a DVC repository."""
    try:
        start = path.resolve()
    except (OSError, RuntimeError):
        return []
    # os.path.isdir: False, not an exception, for a directory this user cannot read
    repo = next((d for d in (start, *start.parents) if os.path.isdir(d / ".dvc")), None)
    if repo is None:
        return []
    found = [repo / ".dvc"]
    for name in ("config", "config.local"):
        try:
            raw = read_bytes(repo / ".dvc" / name)
        except OSError:
            continue
        for match in _URL.finditer((raw or b"").decode("utf-8", "replace")):
            url = match.group(1).strip("'\"")
            if "://" not in url:
                found.append((repo / ".dvc" / url).resolve())
    return found
