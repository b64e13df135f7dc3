"""Where a run may write: the one guard every command that writes an output goes through.

An output never replaces one of the run's inputs (gold, submissions, bucket files, a
report to verify), another output of the same run, or any file of a gold store (a gold
file, a manifest, a benchmark's data): a typo that swaps arguments, or ``-o`` pointed at
the wrong directory, must not eat a file. The gold stores guarded are the ones the run
reads and, always, the one a command without ``--gold-dir`` would read (the checkout's or
the installed one), so that no command can overwrite released gold. The check runs before
any work, so a refused output costs nothing and writes nothing. Symbolic and hard links
are seen through. Stores that commands maintain (``gold new``, ``benchmark add``) write
into them on purpose and do not use this guard.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from benchie_cli.errors import BenchieError, printable_path
from benchie_cli.gold.dirs import GoldDirs
from benchie_cli.textio import (
    LINK_LOOP,
    STDIN,
    WRITTEN_NAME_MAX,
    atomic_write,
    display_name,
    name_bytes,
)

if TYPE_CHECKING:
    from benchie_cli.curves import Curve


#: The format an output file's extension names (``-o FILE`` without ``--format``).
EXTENSIONS = {
    ".json": "json",
    ".html": "html",
    ".htm": "html",
    ".tex": "latex",
    ".csv": "csv",
    ".md": "markdown",
    ".txt": "table",
}

#: The formats only ``score --suite`` writes.
_SUITE_FORMATS = ("latex", "csv")
#: What ``score`` (one benchmark's leaderboard) writes by ``-o``'s extension.
LEADERBOARD_EXTENSIONS = {e: f for e, f in EXTENSIONS.items() if f not in _SUITE_FORMATS}
#: How to get the formats only ``score --suite`` writes, said when a leaderboard's ``-o``
#: names one.
SUITE_ONLY = {
    e: f"a {f} table is --suite's: benchie score --suite FILE... -o NAME{e}"
    for e, f in EXTENSIONS.items()
    if f in _SUITE_FORMATS
}
#: What ``analyze`` writes by ``-o``'s extension.
ANALYSIS_EXTENSIONS = {".json": "json", ".html": "html", ".htm": "html", ".txt": "text"}


def format_of_name(
    output: str,
    writes: Mapping[str, str],
    *,
    command: str,
    elsewhere: Mapping[str, str] | None = None,
) -> str:
    """The format ``-o FILE`` writes when ``--format`` is not given: the one of ``writes``
    (extension, lowercase, -> format) that its extension names, in any case; JSON for a
    name without extension or ``-``.

    Any other extension is refused (exit 2), never written as JSON under that name: a
    ``lb.csv`` or ``a.pdf`` holding JSON would be found wrong only when opened, by a
    spreadsheet or a LaTeX run, long after the command said it succeeded. One rule for every
    command that writes reports (``score``, ``score --suite``, ``analyze``; ``plot`` refuses
    the same way): the extension names the format, and ``--format`` always wins.
    ``elsewhere`` says, for an extension another command writes, how to get that format
    (``.csv``: ``score --suite``)."""
    suffix = PurePath(output).suffix.lower()
    if output == STDIN or not suffix:
        return "json"
    if suffix in writes:
        return writes[suffix]
    known = ", ".join(writes)
    hint = (elsewhere or {}).get(suffix)
    raise BenchieError(
        f"-o {output}: {command} writes the format of its extension ({known}), and "
        f"{suffix} is none of them{f' ({hint})' if hint else ''}; give --format FORMAT to write "
        "that file in FORMAT anyway"
    )


def _same_file(a: str, b: str) -> bool:
    """Whether two names reach one file: the same path once symbolic links are resolved
    (a file not yet created), or the same device and inode (hard links, bind mounts)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _is_stdin(path: str) -> bool:
    """Whether ``path`` is the file standard input reads (``score - -o s.tsv < s.tsv``)."""
    try:
        stdin, target = os.fstat(0), os.stat(path)
    except OSError:
        return False
    return (stdin.st_dev, stdin.st_ino) == (target.st_dev, target.st_ino)


def _same_directory_above(target: Path, store: Path) -> bool:
    """Whether a directory above ``target`` is ``store`` itself reached by another path (a
    bind mount), by device and inode."""
    try:
        wanted = os.stat(store)
    except OSError:
        return False
    for directory in target.parents:
        try:
            found = os.stat(directory)
        except OSError:
            continue
        if (found.st_dev, found.st_ino) == (wanted.st_dev, wanted.st_ino):
            return True
    return False


def default_stores() -> list[Path]:
    """The gold stores every output is kept out of, whatever the run reads: every store of
    the order a command without ``--gold-dir`` reads (docs/gold-store.md)."""
    from benchie_cli.gold.dirs import order

    with contextlib.suppress(BenchieError):  # a missing $BENCHIE_GOLD_DIR: the rest
        return [d.path for d in order(None)]
    from benchie_cli.gold.dirs import checkout_gold_dir, package_gold_dir, user_data_dir

    checkout = checkout_gold_dir()
    return [
        *([] if checkout is None else [checkout.path]),
        user_data_dir().path,
        package_gold_dir(),
    ]


def check_outside_store(output: str | None, root: Path | None) -> None:
    """Refuse (exit 2) an output inside the gold store ``root``: every file there is a
    gold, a manifest or a benchmark's input, and a file written there would replace one.
    The store's ``gold.dvc`` (beside the store: the record of every version) too, and the
    directories where its DVC repository keeps gold bytes (the cache, a remote on this
    machine such as the embedded ``dvc-store/``): a file there is pulled as gold."""
    if output is None or output == STDIN or root is None:
        return
    from benchie_cli.gold.dvcfile import data_directories, find

    target = Path(os.path.realpath(output))
    for directory in (root, *data_directories(root)):
        place = Path(os.path.realpath(directory))
        if target == place or place in target.parents or _same_directory_above(target, place):
            what = "the gold store" if directory == root else "DVC's copy of the gold store"
            raise BenchieError(
                f"is inside {what} {display_name(str(directory))}, whose files are gold, "
                "manifests and benchmarks' data: write the output elsewhere",
                path=output,
            )

    dvc_file = find(root)
    if dvc_file is not None and _same_file(str(dvc_file), output):
        raise BenchieError(
            f"is the DVC file of the gold store {display_name(str(root))}, which records "
            "every gold version: write the output elsewhere",
            path=output,
        )


def check_output(
    output: str | None,
    inputs: Iterable[str | Path] = (),
    others: Iterable[str | None] = (),
    *,
    stores: Iterable[Path | GoldDirs | None] = (),
    directory: bool = False,
) -> None:
    """Fail before the work, not after it, when ``output`` could not be written, or would
    overwrite one of the ``inputs`` or another output of the same run (``others``), or lies
    in a gold store (``stores``, the ones the run reads, and :func:`default_stores`).
    ``directory``: the output is a directory the run writes into (``platform score``)."""
    if output is None or output == STDIN:
        return
    if not output:
        raise BenchieError("empty output file name")
    if not directory:
        _check_name_length(output)
    target = Path(os.path.realpath(output))
    if target.is_symlink():  # (a loop of links: refused before the work, not after it)
        raise BenchieError(LINK_LOOP, path=output)
    if not directory:
        if target.is_dir():
            raise BenchieError("is a directory; give a file name for the output", path=output)
        if not target.parent.is_dir():
            raise BenchieError("the output's directory does not exist", path=output)
    for source in inputs:
        if str(source) == STDIN and _is_stdin(output):
            raise BenchieError(
                "is also standard input, an input of this run; write the output elsewhere",
                path=output,
            )
        if str(source) != STDIN and _same_file(str(source), output):
            raise BenchieError(
                f"is also an input ({display_name(str(source))}); write the output elsewhere",
                path=output,
            )
    for other in others:
        if other is not None and other != STDIN and _same_file(other, output):
            raise BenchieError(
                f"names the same file as the other output ({display_name(other)}); give two files",
                path=output,
            )
    for given in stores:
        for root in given.top().paths if isinstance(given, GoldDirs) else (given,):
            check_outside_store(output, root)
    for root in default_stores():
        check_outside_store(output, root)


def _check_name_length(output: str) -> None:
    """Refuse, before the work, an output whose file name the file system would refuse
    after it ("File name too long"): over :data:`~benchie_cli.textio.WRITTEN_NAME_MAX`
    bytes, the limit of the common file systems."""
    length = name_bytes(os.path.basename(output)) or 0  # (not encodable: the write says so)
    if length > WRITTEN_NAME_MAX:
        raise BenchieError(
            f"file name too long: {length:,} bytes, more than the {WRITTEN_NAME_MAX} a file "
            "system takes; give a shorter name (nothing written)",
            path=output,
        )


def check_curves_directory(
    directory: str, *, stores: Iterable[Path | GoldDirs | None] = ()
) -> None:
    """Refuse (exit 2), before any work, a ``--curves`` directory that does not exist, is
    no directory, or lies in a gold store (:func:`check_output`)."""
    if not directory:
        raise BenchieError("--curves: empty directory name")
    if not os.path.isdir(directory):
        what = "is not a directory" if os.path.exists(directory) else "does not exist"
        raise BenchieError(f"--curves: the directory {what}; create it first", path=directory)
    check_output(directory, stores=stores, directory=True)


def write_curves(
    directory: str,
    curves: Sequence[tuple[str, Curve]],
    inputs: Iterable[str] = (),
    *,
    report: str | None = None,
    systems: Sequence[str] = (),
    metrics: Sequence[str] = (),
) -> list[tuple[str, str]]:
    """Each curve's file, as its original scorer writes it, in ``directory``, named by
    :func:`benchie_cli.curves.file_names`; each written atomically, and none unless every
    name is a file that may be written: no two curves of one file name (ignoring case, as
    macOS and Windows do), none the report (``report``, ``-o``) or an input of the run.
    ``systems`` (the report's names) and ``metrics`` (those with a curve file, in order)
    name each curve's owner in messages. Each path written, with whose curve it holds."""
    from benchie_cli.curves import clashes, file_names, owners

    stems = [stem for stem, _ in curves]
    names = file_names(stems)
    paths = [os.path.join(directory, n) for n in names]

    def whose(indexes: Sequence[int]) -> list[str]:
        found = list(dict.fromkeys(o for n in indexes for o in owners(stems[n], systems, metrics)))
        if not found:
            return [f"the curve {printable_path(stems[n])!r}" for n in indexes]
        return [f"the {metric} curve of system {printable_path(name)!r}" for name, metric in found]

    for n, name in enumerate(names):
        size = name_bytes(name) or 0  # (not encodable: the write says so)
        if size > WRITTEN_NAME_MAX:
            raise BenchieError(
                f"--curves: the file name of {' and '.join(whose([n]))} would be "
                f"{size:,} bytes, more than the {WRITTEN_NAME_MAX} a file system "
                "takes: give the system a shorter name (NAME=PATH); nothing written",
                path=directory,
            )
    for group in clashes(names):
        said = whose(group)
        files = sorted({names[n] for n in group})
        raise BenchieError(
            f"--curves: {' and '.join(said)} would be written to one file, "
            f"{' = '.join(files)}"
            + (" (file names that differ in case only are one file on macOS and Windows)"
               if len(files) > 1 else "")
            + ": rename a system (NAME=PATH); nothing written",
            path=directory,
        )  # fmt: skip
    listed = list(inputs)
    labels = [" and ".join(whose([n])) for n in range(len(curves))]
    for path, label in zip(paths, labels, strict=True):
        if report is not None and report != STDIN and _same_file(report, path):
            raise BenchieError(
                f"--curves: the file of {label} is also the report (-o "
                f"{display_name(report)}): write the report elsewhere, or the curves into "
                "another directory; nothing written",
                path=path,
            )
        for source in listed:
            if source != STDIN and _same_file(source, path):
                raise BenchieError(
                    f"--curves: the file of {label} is also an input of the run "
                    f"({display_name(source)}): write the curves into another directory; "
                    "nothing written",
                    path=path,
                )
        check_output(path, listed)
    for path, (_, curve) in zip(paths, curves, strict=True):
        atomic_write(path, curve.dat().encode())
    return list(zip(paths, labels, strict=True))
