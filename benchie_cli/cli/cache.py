"""``benchie cache info|prune``: the cache (compiled gold indexes, memos)."""

from __future__ import annotations

import click

from benchie_cli.cli.common import emit, format_option
from benchie_cli.cli.group import EPILOG_EXIT, BenchieGroup
from benchie_cli.tables import render
from benchie_cli.textio import display_name


@click.group(
    cls=BenchieGroup,
    epilog=EPILOG_EXIT,
    short_help="Inspect and prune the cache of indexes and memos.",
)
def cache() -> None:
    """Inspect and prune the cache: compiled gold indexes and memos.

    \b
    Example:
      benchie cache info
    """


@cache.command("info", epilog=EPILOG_EXIT, short_help="List the cache's entries and totals.")
@format_option
def cache_info(fmt: str) -> None:
    """List the cache directory, its entries (size, gold sha256, facet, code fingerprint,
    whether this code reads it) and totals.

    \b
    Example:
      benchie cache info --format json
    """
    from benchie_cli.benchmarks.benchie.cache_admin import code_fingerprint, human_size, list_cache
    from benchie_cli.disk_cache import cache_dir, off_reason

    directory = cache_dir()
    if directory is None:
        if fmt == "json":
            emit(fmt, {"directory": None, "enabled": False}, [])
        else:
            click.echo(f"the cache is off ({off_reason()})")
        return
    listing = list_cache(directory)
    if fmt == "json":
        doc = {
            "directory": display_name(str(directory)),
            "enabled": True,
            "exists": listing.exists,
            "code": code_fingerprint(),
            "entries": [f.as_json() for f in listing.files],
            "files": len(listing.files),
            "bytes": listing.total,
            "other_files": listing.others,
        }
        emit(fmt, doc, [])
        return
    state = "" if listing.exists else " (does not exist yet)"
    click.echo(f"cache: {display_name(str(directory))}{state}")
    click.echo(
        f"code fingerprint: {code_fingerprint()} (the indexes'; each memo's code column is "
        "the fingerprint of its own code and data)"
    )
    if listing.files:
        rows = [["name", "size", "gold", "facet", "code", "current"]]
        for f in listing.files:
            current = "yes" if f.current else "no"
            if f.kind == "temporary":
                current = "stale tmp" if f.stale else "tmp"
            rows.append(
                [
                    f.shown,
                    human_size(f.size),
                    (f.gold_sha256 or "-")[:12],
                    f.facet or "-",
                    f.code or "-",
                    current if f.kind != "old-entry" else "no (0.2.0)",
                ]
            )
        for line in render(rows, [1]):
            click.echo(line)
    reads = sum(1 for f in listing.files if f.current)
    click.echo(
        f"{len(listing.files)} file(s), {human_size(listing.total)}; {reads} current, "
        f"{len(listing.files) - reads} prunable or temporary"
        + (f"; {listing.others} other file(s) left alone" if listing.others else "")
    )


@cache.command("prune", epilog=EPILOG_EXIT, short_help="Remove the entries this code never reads.")
@click.option("--all", "everything", is_flag=True, help="Remove every entry, current ones too.")
def cache_prune(everything: bool) -> None:
    """Remove entries this code never reads (another code fingerprint, 0.2.0's *.marshal)
    and stale temporary files; only regular files named like entries, no link followed.

    \b
    Examples:
      benchie cache prune
      benchie cache prune --all
    """
    from benchie_cli.benchmarks.benchie.cache_admin import human_size, prune, require_dir

    directory = require_dir()
    removed = prune(directory, everything=everything)
    for f in removed:
        click.echo(f"removed {f.shown} ({human_size(f.size)})")
    total = sum(f.size for f in removed)
    click.echo(
        f"removed {len(removed)} file(s), {human_size(total)} from {display_name(str(directory))}"
    )
