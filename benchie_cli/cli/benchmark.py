"""``benchie benchmark ...``: the benchmarks of the gold store (list), and the external ones
a user adds from the published file (add). docs/gold-store.md, "External benchmarks"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import orjson

from benchie_cli import default_gold_version
from benchie_cli.cli.common import GOLD_DIR_HELP, say
from benchie_cli.cli.group import EPILOG_EXIT, BenchieGroup
from benchie_cli.errors import BenchieError
from benchie_cli.gold.dirs import GoldDirs, resolve
from benchie_cli.gold.external import External, added_versions, parts, store
from benchie_cli.gold.store import (
    MANIFEST,
    GoldStore,
    dvc_remote_of,
    version_key,
)
from benchie_cli.registry import BENCHMARKS, EXTERNAL
from benchie_cli.tables import render
from benchie_cli.textio import display_name


@click.group(
    cls=BenchieGroup, epilog=EPILOG_EXIT, short_help="List the benchmarks; add an external one."
)
def benchmark() -> None:
    """The benchmarks: the ones benchie ships, and the external ones you add yourself.

    Re-OIE2016, WiRe57 and the others published without a licence are not shipped:
    download the published files and add them to your gold store with `benchmark add`.

    \b
    Example:
      benchie benchmark list
    """


gold_dir_option = click.option(
    "--gold-dir",
    default=None,
    metavar="DIR",
    help=GOLD_DIR_HELP,
)


@benchmark.command(
    "add", epilog=EPILOG_EXIT, short_help="Add an external benchmark from its published files."
)
@click.argument("name", type=click.Choice(tuple(EXTERNAL)))
@click.argument("files", metavar="FILE...", nargs=-1, required=True)
@gold_dir_option
def benchmark_add(name: str, files: tuple[str, ...], gold_dir: str | None) -> None:
    """Add published files of the benchmark NAME to the gold store: each FILE is
    recognised by its sha256 (which language, split and file of NAME it is).

    FILE must be a published file byte for byte (another is refused, exit 1, naming the
    file expected and its sha256) and must read (exit 2 if not). A gold that needs another
    file beside it (CaRB's sentences, LSOIE's heads) is added with it, in one command. Each
    is kept as version 1.0.0 of its part of NAME in the gold store, with a manifest pinned
    like any gold's; a .gitignore keeps the copy out of git. Nothing is written unless all
    of a part is. Adding the same files again writes nothing (exit 0), also when another
    run adds them at the same time; a different copy already there is refused (exit 2).
    `benchie benchmark list` names every published file, where to download it and the
    command that adds it.

    \b
    Examples:
      benchie benchmark add reoie2016 Re-OIE2016.json
      benchie benchmark add wire57 WiRe57_343-manual-oie.json --gold-dir ~/benchie-gold
    """
    from benchie_cli.gold.external import add

    add(name, [Path(f) for f in files], resolve(gold_dir).for_writing(), say=say)


@benchmark.command(
    "list", epilog=EPILOG_EXIT, short_help="List every benchmark and whether it is there."
)
@gold_dir_option
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def benchmark_list(gold_dir: str | None, fmt: str) -> None:
    """List every benchmark: the shipped ones with their versions (present, or tracked by
    DVC and not pulled), and the published files benchie does not ship (the external
    benchmarks, CaRB's languages but English), a row a part: added (version and sha256,
    each file checked against its manifest: "damaged" if it differs) or missing (with the
    command that adds them). A report: it exits 0 whatever it finds.

    \b
    Examples:
      benchie benchmark list
      benchie benchmark list --format json --gold-dir ~/benchie-gold
    """
    root = resolve(gold_dir)
    doc: list[dict[str, Any]] = []
    rows = [["benchmark", "version", "state", "detail"]]
    for name in BENCHMARKS:
        if not BENCHMARKS[name].external:
            _list_shipped(root, name, doc, rows)
        if BENCHMARKS[name].published:  # all its gold, or the languages it does not ship
            _list_external(root, name, doc, rows)
    if fmt == "json":
        click.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
        return
    for line in render(rows):
        click.echo(line)


def _list_shipped(
    root: GoldDirs, name: str, doc: list[dict[str, Any]], rows: list[list[str]]
) -> None:
    """A shipped benchmark's rows: each version present or tracked but not pulled; one row
    ``absent`` when no gold store has either."""
    store_dir = BENCHMARKS[name].store_dir
    directory = root / store_dir if store_dir else root
    gold_store = GoldStore(directory)
    present = gold_store.versions()  # version directories only: no manifest read
    tracked = gold_store.tracked()
    base = {"benchmark": name, "label": BENCHMARKS[name].label, "external": False}
    default = default_gold_version() if BENCHMARKS[name].default_from_env else None
    for version in sorted(set(present) | set(tracked), key=version_key):
        marker = " (default)" if version == default else ""
        if version in present:
            doc.append({**base, "version": version, "state": "present"})
            rows.append([name, version + marker, "present", ""])
            continue
        remote = dvc_remote_of(gold_store.tracked_root(version), version)
        pull = f"dvc pull {_relative(gold_store.tracked_root(version) / version)}"
        doc.append({**base, "version": version, "state": "not pulled", "pull": pull})
        kept = f" (remote {remote})" if remote else ""
        rows.append([name, version + marker, "not pulled", f"`{pull}`{kept}"])
    if not present and not tracked:
        doc.append({**base, "version": None, "state": "absent"})
        rows.append([name, "-", "absent", "in none of the gold stores"])


def _list_external(
    root: GoldDirs, name: str, doc: list[dict[str, Any]], rows: list[list[str]]
) -> None:
    """An external benchmark's rows, a part of its published files each: each version
    added, checked against its manifest (and the manifest against its pin) as every run
    that reads it does, with its gold file's sha256; ``damaged`` when a file or the
    manifest was changed since (with the command that says what); or one row ``missing``
    with where to get the files and the command."""
    for e in parts(name):
        _list_part(root, e, doc, rows)


def _list_part(
    root: GoldDirs, e: External, doc: list[dict[str, Any]], rows: list[list[str]]
) -> None:
    name = e.name
    shown = name if not e.part else f"{name} ({e.published.language}, {e.published.split})"
    base = {
        "benchmark": name,
        "label": e.label,
        "external": True,
        "language": e.published.language,
        "split": e.published.split,
    }
    versions = added_versions(root, name, e.part)
    if not versions:
        doc.append(
            {
                **base,
                "version": None,
                "state": "missing",
                "file": e.published.file,
                "files": [f.file for f in e.files],
                "sha256": {f.file: f.sha256 for f in e.files},
                "url": e.published.url,
                "download_url": e.published.download_url,
                "add": e.add_command,
            }
        )
        source = e.published.url
        if any(
            f.file == p.file and f is not p for f in e.files for p in BENCHMARKS[name].published
        ):
            # a name another published file shares (DocOIE's extractions.tsv): say which
            source += " " + ", ".join(f.upstream_path for f in e.files)
        rows.append([shown, "-", "missing", f"`{e.add_command}` (from {source})"])
        return
    gold_store = store(root, name, e.part)
    verify = f"benchie gold verify --benchmark {name}"
    for version in versions:
        try:
            manifest = gold_store.manifest(version)
            entry = next(
                f for f in manifest.files if f.kind == "gold" and f.facet == e.published.split
            )
        except (BenchieError, StopIteration) as exc:
            problem = exc.message if isinstance(exc, BenchieError) else "no gold file listed"
            doc.append({**base, "version": version, "state": "unusable", "problem": problem})
            rows.append([shown, version, "unusable", problem])
            continue
        where = (e.directory(Path()) / version / entry.path).as_posix()
        detail = f"added, but differs from its manifest: `{verify}`"
        try:
            problems = [f"{file}: {problem}" for file, problem in gold_store.verify([version])]
            if not problems and gold_store.shipped_mismatch(version) is not None:
                problems = [f"{version}/{MANIFEST}: edited since it was added"]
                detail = f"added, but its manifest was edited: `{verify}`"
        except (BenchieError, OSError) as exc:  # a file that cannot be read
            problems = [exc.message if isinstance(exc, BenchieError) else str(exc)]
            detail = f"added, but cannot be read: `{verify}`"
        if problems:
            doc.append(
                {
                    **base,
                    "version": version,
                    "state": "damaged",
                    "path": where,
                    "problems": problems,
                    "verify": verify,
                }
            )
            rows.append([shown, version, "damaged", detail])
            continue
        doc.append(
            {**base, "version": version, "state": "added", "sha256": entry.sha256, "path": where}
        )
        rows.append([shown, version, "added", f"sha256 {entry.sha256}"])


def _relative(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it: commands to paste."""
    try:
        return display_name(str(path.resolve().relative_to(Path.cwd().resolve())))
    except ValueError:
        return display_name(str(path))
