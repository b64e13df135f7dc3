"""``benchie gold ...``: the gold store (path, list, info, stats, verify, compile, manifest,
new, release, diff, impact)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import orjson

from benchie_cli import LANGUAGES, default_gold_version
from benchie_cli.errors import BenchieError, ExitCode, printable_path
from benchie_cli.gold.dirs import GoldDirs, resolve
from benchie_cli.gold.store import (
    MANIFEST,
    GoldStore,
    build_manifest,
    dvc_remote_of,
    version_key,
    write_manifest,
)
from benchie_cli.inputs.batch import expand

if TYPE_CHECKING:
    from benchie_cli.gold.lifecycle import Added
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions
from benchie_cli.cli.common import (
    GOLD_DIR_HELP,
    GOLD_VERSION_SHOWN,
    emit,
    format_option,
    load_gold,
    summarise_warnings,
)
from benchie_cli.cli.group import EPILOG_EXIT, BenchieGroup, set_verdict
from benchie_cli.gc_pause import no_cyclic_gc
from benchie_cli.gold.parse import parse_gold_bytes
from benchie_cli.registry import BASE_FACET, BENCHMARKS, DEFAULT_BENCHMARK, FACET_NAMES
from benchie_cli.textio import display_name, read_whole


@click.group(
    cls=BenchieGroup, epilog=EPILOG_EXIT, short_help="Inspect and check the versioned gold store."
)
def gold() -> None:
    """Inspect and check the versioned gold store.

    \b
    Example:
      benchie gold stats --gold-version 1.0.0
    """


def _store(gold_dir: str | None) -> GoldStore:
    """BenchIE's gold in the stores of the order (``--gold-dir`` first)."""
    return GoldStore(resolve(gold_dir))


gold_dir_option = click.option("--gold-dir", default=None, metavar="DIR", help=GOLD_DIR_HELP)
benchmark_option = click.option(
    "--benchmark",
    type=click.Choice(tuple(BENCHMARKS)),
    default=DEFAULT_BENCHMARK,
    show_default=True,
    help="Whose gold: BenchIE's, or another benchmark's (gold/NAME/), whose --gold-version "
    "defaults to its latest version.",
)
#: ``--gold-version`` of ``gold info`` and ``gold stats``: a version of the ``--benchmark``.
gold_version_option = click.option(
    "--gold-version",
    default=default_gold_version,
    show_default=GOLD_VERSION_SHOWN,
    metavar="V",
    help="Version of the benchmark's gold (with --benchmark carb: CaRB's; default its latest).",
)


def _benchmark_store(root: GoldDirs, benchmark: str) -> GoldStore:
    """Another benchmark's part of the gold directory (``<root>/<name>/``): the store of
    its default split's gold, which for a benchmark whose published files are all in parts
    (LSOIE's splits) is that part's (``<root>/<name>/<part>/``)."""
    from benchie_cli.benchmarks.corpus import store

    return store(root, benchmark)


def _benchmark_version(store: GoldStore, gold_version: str) -> str:
    """The version of another benchmark a command reads: ``--gold-version`` when given on
    the command line, else the benchmark's latest, as for ``score --benchmark``: BenchIE's
    default version (or $BENCHIE_GOLD_VERSION) names a BenchIE version, not another's."""
    from benchie_cli.benchmarks.corpus import latest_version

    if not store.versions():
        from benchie_cli.benchmarks.corpus import missing

        raise BenchieError(missing(store.benchmark))
    source = click.get_current_context().get_parameter_source("gold_version")
    if source == click.core.ParameterSource.COMMANDLINE:
        return gold_version
    return latest_version(store)


@gold.command(
    "path", epilog=EPILOG_EXIT, short_help="Print where gold is found, and the order of stores."
)
@gold_dir_option
@click.option(
    "--all",
    "every",
    is_flag=True,
    help="Every store of the order, what each holds, and where new gold is written.",
)
@format_option
def gold_path(gold_dir: str | None, every: bool, fmt: str) -> None:
    """Print the gold store BenchIE's default version is read from (how it was chosen, on
    stderr); with --all, every store in the order a run looks in: --gold-dir,
    $BENCHIE_GOLD_DIR, a checkout's gold/, the user's data directory ($BENCHIE_DATA_DIR),
    the installed package's gold. Each version is read from the first store that holds it.

    \b
    Examples:
      benchie gold path
      benchie gold path --all
    """
    from benchie_cli.gold.dirs import ENV_GOLD_DIR, GIVEN, order
    from benchie_cli.gold.external import holdings

    dirs = resolve(gold_dir)
    if not every:
        store = GoldStore(dirs)
        version = default_gold_version()
        if version not in store.require_versions():
            store.manifest(version)  # the error that says why it is not there
        top = store.directory(version).parent
        source = next(d for d in dirs.dirs if d.path.joinpath() == top)
        click.echo(printable_path(str(top.resolve())))
        click.echo(f"benchie: from {source.shown}", err=True)
        return
    in_use = {d.path: d for d in dirs.dirs}
    taken: set[tuple[str, str]] = set()
    doc: list[dict[str, Any]] = []
    rows = [["#", "store", "directory", "holds"]]
    for n, d in enumerate(order(gold_dir), 1):
        held = holdings(d.path) if d.path in in_use else []
        shadowed = [h for h in held if h in taken]
        taken.update(held)
        state = "absent" if not d.path.is_dir() else "empty" if not held else ""
        text = state or ", ".join(
            f"{what} {v}" + (" (shadowed)" if (what, v) in shadowed else "") for what, v in held
        )
        doc.append(
            {
                "order": n,
                "store": d.source,
                "detail": d.detail or None,
                "path": printable_path(str(d.path)),
                "exists": d.path.is_dir(),
                "holds": [
                    {"gold": what, "version": v, "shadowed": (what, v) in shadowed}
                    for what, v in held
                ],
            }
        )
        rows.append([str(n), d.shown, printable_path(str(d.path)), text])
        if d.source == GIVEN and os.environ.get(ENV_GOLD_DIR):
            replaced = printable_path(os.environ[ENV_GOLD_DIR])
            rows.append(["", f"${ENV_GOLD_DIR}", replaced, "replaced by --gold-dir"])
    if fmt == "json":
        emit(fmt, {"stores": doc, "writes_to": printable_path(str(dirs.target.path))}, rows)
        return
    emit(fmt, doc, rows)
    click.echo(
        f"benchie: new gold is written to {printable_path(str(dirs.target.path))} "
        f"({dirs.target.shown})",
        err=True,
    )


@gold.command("list", epilog=EPILOG_EXIT, short_help="List versions, languages and facets.")
@gold_dir_option
@format_option
def gold_list(gold_dir: str | None, fmt: str) -> None:
    """List versions, languages and facets (derived facets marked).

    \b
    Example:
      benchie gold list --format json
    """
    store = _store(gold_dir)
    default_version = default_gold_version()
    doc: list[dict[str, Any]] = []
    rows = [["version", "language", "facets"]]
    pulled = store.require_versions()
    for version in sorted(set(pulled) | set(store.tracked()), key=version_key):
        if version not in pulled:  # DVC tracks it; its remote may be one this clone cannot read
            remote = dvc_remote_of(store.tracked_root(version), version)
            doc.append(
                {
                    "version": version,
                    "default": version == default_version,
                    "pulled": False,
                    "dvc_remote": remote,
                }
            )
            kept = f" (remote {remote})" if remote else ""
            pull = f"`dvc pull {_relative(store.tracked_root(version) / version)}`{kept}"
            rows.append([f"{version} (not pulled)", "-", pull])
            continue
        manifest = store.manifest(version)
        for lang in manifest.languages():
            facets = manifest.facets(lang)
            doc.append(
                {
                    "version": version,
                    "default": version == default_version,
                    "released": manifest.released,
                    "language": lang,
                    "facets": [{"facet": f, "derived_from": d} for f, d in facets],
                }
            )
            rows.append(
                [
                    version
                    + (" (default)" if version == default_version else "")
                    + ("" if manifest.released else " (draft)"),
                    lang,
                    ", ".join(f if d is None else f"{f} (from {d})" for f, d in facets),
                ]
            )
    for name in BENCHMARKS:
        if not BENCHMARKS[name].by_language:
            _list_benchmark(resolve(gold_dir), name, doc, rows)
    emit(fmt, doc, rows)


def _list_benchmark(
    root: GoldDirs, name: str, doc: list[dict[str, Any]], rows: list[list[str]]
) -> None:
    """``gold list``'s rows of another benchmark (``<root>/<name>/``), after BenchIE's."""
    store = _benchmark_store(root, name)
    pulled = store.versions()
    for version in sorted(set(pulled) | set(store.tracked()), key=version_key):
        if version not in pulled:
            remote = dvc_remote_of(store.tracked_root(version), version)
            doc.append(
                {"benchmark": name, "version": version, "pulled": False, "dvc_remote": remote}
            )
            kept = f" (remote {remote})" if remote else ""
            pull = f"`dvc pull {_relative(store.tracked_root(version) / version)}`{kept}"
            rows.append([f"{name} {version} (not pulled)", "-", pull])
            continue
        manifest = store.manifest(version)
        splits = [str(e.facet) for e in manifest.files if e.kind == "gold"]
        doc.append(
            {
                "benchmark": name,
                "version": version,
                "released": manifest.released,
                "language": "en",
                "splits": splits,
            }
        )
        draft = "" if manifest.released else " (draft)"
        shown = [s for s in BENCHMARKS[name].splits if s in splits or s == "all"] or splits
        rows.append([f"{name} {version}{draft}", "en", "splits: " + ", ".join(shown)])


@gold.command(
    "info", epilog=EPILOG_EXIT, short_help="Show a version's manifest: files, hashes, licence."
)
@gold_version_option
@benchmark_option
@gold_dir_option
@format_option
def gold_info(gold_version: str, benchmark: str, gold_dir: str | None, fmt: str) -> None:
    """Show a version's manifest: files, hashes, counts, licence.

    \b
    Examples:
      benchie gold info --gold-version 1.0.0
      benchie gold info --benchmark carb
    """
    if not BENCHMARKS[benchmark].by_language:
        _benchmark_info(benchmark, gold_version, gold_dir, fmt)
        return
    manifest = _store(gold_dir).manifest(gold_version)
    rows = [["file", "language", "facet", "sha256", "sentences", "synsets"]]
    for e in manifest.files:
        rows.append(
            [
                e.path,
                e.language,
                e.facet or e.kind,
                e.sha256,
                str(e.sentences if e.sentences is not None else "-"),
                str(e.synsets if e.synsets is not None else "-"),
            ]
        )
    if fmt == "table":
        status = "released" if manifest.released else "draft"
        click.echo(
            f"gold {manifest.version} ({status}): {manifest.description} ({manifest.license})"
        )
    emit(fmt, manifest.as_json(), rows)


def _benchmark_info(benchmark: str, gold_version: str, gold_dir: str | None, fmt: str) -> None:
    """``gold info --benchmark NAME``: another benchmark's version's manifest. The JSON is
    the manifest as written, as for BenchIE's, so it keeps the ``benchmark`` and ``splits``
    keys that the parsed manifest does not model; the table lists each file's split and
    kind."""
    store = _benchmark_store(resolve(gold_dir), benchmark)
    version = _benchmark_version(store, gold_version)
    manifest = store.manifest(version)  # checks the version and the manifest's form
    rows = [["file", "split", "kind", "sha256", "sentences"]]
    for e in manifest.files:
        sentences = str(e.sentences if e.sentences is not None else "-")
        rows.append([e.path, str(e.facet), e.kind, e.sha256, sentences])
    if fmt == "table":
        status = "released" if manifest.released else "draft"
        click.echo(
            f"{benchmark} gold {manifest.version} ({status}): {manifest.description} "
            f"({manifest.license})"
        )
    doc = orjson.loads(read_whole(str(store.directory(version) / MANIFEST), what="manifest"))
    emit(fmt, doc, rows)


@gold.command(
    "stats", epilog=EPILOG_EXIT, short_help="Count sentences, synsets and expanded extractions."
)
@gold_version_option
@click.option(
    "--lang", type=click.Choice(LANGUAGES), default=None, help="Only this language [default: all]."
)
@benchmark_option
@gold_dir_option
@format_option
def gold_stats(
    gold_version: str, lang: str | None, benchmark: str, gold_dir: str | None, fmt: str
) -> None:
    """Sentences, synsets and expanded extractions per language and facet; with --benchmark
    carb, per split: input sentences, sentences with gold, and gold tuples.

    \b
    Examples:
      benchie gold stats --lang en --format json
      benchie gold stats --benchmark carb
    """
    if not BENCHMARKS[benchmark].by_language:
        from benchie_cli.benchmarks.corpus import store as store_of
        from benchie_cli.benchmarks.runner import runner

        splits = runner(benchmark)
        if not splits.counts_splits:
            raise BenchieError(
                f"gold stats counts BenchIE's and CaRB's gold; {benchmark}'s counts are in "
                f"`benchie gold info --benchmark {benchmark}` and docs/{benchmark}.md"
            )
        if lang not in (None, "en"):
            label = BENCHMARKS[benchmark].label
            raise BenchieError(f"{label}'s gold is English only; --lang {lang} does not apply")
        root = resolve(gold_dir)
        version = _benchmark_version(store_of(root, benchmark), gold_version)
        emit(fmt, *splits.gold_stats(root, version))
        return
    from benchie_cli.gold.stats import count_gold

    store = _store(gold_dir)
    manifest = store.manifest(gold_version)
    if lang is not None and lang not in manifest.languages():
        raise BenchieError(
            f"gold {gold_version} has no language {lang!r} "
            f"(available: {', '.join(manifest.languages())})"
        )
    doc = []
    rows = [["language", "facet", "sentences", "synsets", "triple lines", "extractions"]]
    for language in manifest.languages():
        if lang is not None and language != lang:
            continue
        for facet, derived in manifest.facets(language):
            resolved = store.resolve(gold_version, language, facet)
            with no_cyclic_gc():
                counts = count_gold(parse_gold_bytes(resolved.data, resolved.display_path), facet)
            doc.append(
                {
                    "version": gold_version,
                    "language": language,
                    "facet": facet,
                    "derived_from": derived,
                    **counts.as_json(),
                }
            )
            rows.append(
                [
                    language,
                    facet if derived is None else f"{facet} (from {derived})",
                    str(counts.sentences),
                    str(counts.synsets),
                    str(counts.triple_lines),
                    f"{counts.extractions}"
                    + (
                        " (saturated)" if counts.saturated else "" if counts.exact else " (approx.)"
                    ),
                ]
            )
    emit(fmt, doc, rows)


@gold.command(
    "verify", epilog=EPILOG_EXIT, short_help="Check every gold file's sha256 against its manifest."
)
@click.option("--gold-version", default=None, metavar="V", help="Only this version [default: all].")
@click.option(
    "--benchmark",
    type=click.Choice(tuple(BENCHMARKS)),
    default=None,
    help="Only this benchmark's versions [default: every benchmark's; BenchIE's with "
    "--gold-version].",
)
@gold_dir_option
def gold_verify(gold_version: str | None, benchmark: str | None, gold_dir: str | None) -> None:
    """Recompute every sha256 against the manifests; say which versions are released; exit 1
    naming each file that differs, and each shipped version whose manifest is not the one
    benchie-cli released.

    \b
    Examples:
      benchie gold verify
      benchie gold verify --benchmark carb --gold-version 1.0.0
    """
    if benchmark is not None and not BENCHMARKS[benchmark].by_language:
        if not _verify_benchmark(resolve(gold_dir), benchmark, gold_version, alone=True):
            sys.exit(int(ExitCode.FAILED))
        return
    dirs = resolve(gold_dir)
    store = GoldStore(dirs)
    versions = [gold_version] if gold_version else store.require_versions()
    problems = [(store.path_of(name), problem) for name, problem in store.verify(versions)]
    for layer in store.layers:  # a `gold new` killed before cleanup
        for leftover in sorted(layer.glob(".new-*")):
            problems.append((leftover, "left by an interrupted `gold new`: remove it"))
    not_shipped = []
    for version in versions:
        mismatch = store.shipped_mismatch(version)
        if mismatch is not None:
            problems.append((store.directory(version) / MANIFEST, mismatch))
            not_shipped.append(version)
    if problems:
        set_verdict(int(ExitCode.FAILED))
    for name, problem in problems:
        click.echo(f"{display_name(str(name))}: error: {problem}", err=True)
    for version in versions:
        manifest = store.manifest(version)
        status = "released" if manifest.released else "draft (may still change)"
        if version in store.shipped:
            status += ", shipped with benchie-cli"
        click.echo(f"{version}: {status}, {len(manifest.files)} file(s)")
    for version in sorted(set(store.tracked()) - set(store.versions())):
        if gold_version is None:
            click.echo(f"{version}: tracked by DVC, not pulled (not verified)")
    files = benchie_files = sum(len(store.manifest(v).files) for v in versions)
    counted = len(versions)
    benchmarks = 1
    others_failed = False
    if gold_version is None and benchmark is None:  # and every other benchmark's versions
        for other in BENCHMARKS:
            if BENCHMARKS[other].by_language:
                continue
            others_failed |= not _verify_benchmark(dirs, other)
            present = 0
            for _, other_store in [
                ("", _benchmark_store(dirs, other)),
                *_part_stores(dirs, other),
            ]:
                versions_of = other_store.versions()
                files += sum(len(other_store.manifest(v).files) for v in versions_of)
                present += len(versions_of)
            counted += present
            benchmarks += bool(present)
    if problems:
        differ = len(problems) - len(not_shipped)
        if differ:
            click.echo(
                f"benchie: {differ} of {benchie_files} gold file(s) differ from the manifest",
                err=True,
            )
        if not_shipped:
            click.echo(
                f"benchie: the manifest of {', '.join(not_shipped)} is not the released one",
                err=True,
            )
        sys.exit(int(ExitCode.FAILED))
    if others_failed:
        sys.exit(int(ExitCode.FAILED))
    of = f" of {benchmarks} benchmark(s)" if benchmarks > 1 else ""
    click.echo(f"ok: {files} file(s) in {counted} version(s){of} match their manifests")


def _part_stores(root: GoldDirs, name: str) -> list[tuple[str, GoldStore]]:
    """The stores of the parts of ``name``'s published files that have a directory of their
    own (a language's or a split's gold: Re-OIE2016's Spanish, DocOIE's splits) and are
    added to ``root``, each with its part's name."""
    from benchie_cli.gold.external import parts

    if not BENCHMARKS[name].published:
        return []
    stores = [(e.part, e.store(root)) for e in parts(name) if e.part]
    own = _benchmark_store(root, name).layers  # (a benchmark of parts: its default split's)
    return [(part, s) for part, s in stores if s.versions() and s.layers != own]


def _verify_benchmark(
    root: GoldDirs, name: str, gold_version: str | None = None, *, alone: bool = False
) -> bool:
    """``gold verify`` of another benchmark's versions (``<root>/<name>/``, and those of
    each added part of its published files that has a directory of its own), if any, or
    of ``gold_version`` alone: one line per version on stdout, an error per problem on
    stderr; whether all is well. ``alone`` (``--benchmark NAME``) requires a version and
    ends with the ``ok:`` line that BenchIE's verification prints for its own."""
    store = _benchmark_store(root, name)
    parts = _part_stores(root, name)
    if alone and not store.versions() and not parts and gold_version is None:
        from benchie_cli.benchmarks.corpus import missing

        raise BenchieError(missing(name))
    stores = [("", store)] if store.versions() or not parts else []
    problems: list[tuple[Path, str]] = []
    files = counted = 0
    targets = [*stores, *parts]
    if gold_version is not None:  # where it is, else where its absence is said
        having = [(part, one) for part, one in targets if gold_version in one.versions()]
        chosen = [(part, one, [gold_version]) for part, one in having or targets[:1]]
    else:
        chosen = [
            (part, one, one.require_versions() if alone and one is store else one.versions())
            for part, one in targets
        ]
    for part, one, versions in chosen:
        found = [(one.path_of(f), problem) for f, problem in one.verify(versions)]
        for version in versions:
            mismatch = one.shipped_mismatch(version)
            if mismatch is not None:
                found.append((one.directory(version) / MANIFEST, mismatch))
        problems += found
        for file_name, problem in found:
            click.echo(f"{display_name(str(file_name))}: error: {problem}", err=True)
        shown = f"{name} {part} " if part else f"{name} "
        damaged = {
            version
            for version in versions
            for file_name, _ in found
            if one.directory(version) in (file_name, *file_name.parents)
        }
        for version in versions:
            manifest = one.manifest(version)
            if version in damaged:  # said above: no status line that reads as healthy
                click.echo(f"{shown}{version}: damaged (see the errors above)")
                continue
            status = "released" if manifest.released else "draft (may still change)"
            if version in one.shipped:
                external = BENCHMARKS[name].external or one is not store
                status += (
                    ", the published file, added by you"
                    if external
                    else ", shipped with benchie-cli"
                )
            click.echo(f"{shown}{version}: {status}, {len(manifest.files)} file(s)")
            files += len(manifest.files)
        counted += len(versions)
        for version in sorted(set(one.tracked()) - set(one.versions())):
            if gold_version is None:
                click.echo(f"{shown}{version}: tracked by DVC, not pulled (not verified)")
    if problems:
        set_verdict(int(ExitCode.FAILED))
    label = BENCHMARKS[name].label
    if problems:
        click.echo(f"benchie: {len(problems)} problem(s) in the {label} benchmark's gold", err=True)
    elif alone:
        click.echo(f"ok: {files} file(s) in {counted} {label} version(s) match their manifests")
    return not problems


@gold.command("compile", epilog=EPILOG_EXIT, short_help="Fill the index cache for every version.")
@click.option("--gold-version", default=None, metavar="V", help="Only this version [default: all].")
@gold_dir_option
def gold_compile(gold_version: str | None, gold_dir: str | None) -> None:
    """Fill the index cache with every version, language and facet, so that no later run
    pays for parsing the gold (container images run this at build time).

    \b
    Example:
      BENCHIE_CACHE_DIR=/opt/benchie/cache benchie gold compile
    """
    from benchie_cli.benchmarks.benchie.index_cache import compile_store

    store = _store(gold_dir)
    versions = [gold_version] if gold_version else store.require_versions()
    written = compile_store(store, versions)
    click.echo(f"compiled {len(written)} index(es) into {written[0].parent}")


force_option = click.option(
    "--force",
    is_flag=True,
    help="Rewrite a released version's manifest (only for one never published: reports "
    "name its files' sha256).",
)


@gold.command("manifest", epilog=EPILOG_EXIT, short_help="Rewrite a draft version's manifest.json.")
@click.argument("version_dir", type=click.Path(file_okay=False, exists=True))
@click.option("--description", default=None, help="Description of the version.")
@click.option("--license", "license_", default=None, help="Licence of the data.")
@force_option
def gold_manifest(
    version_dir: str, description: str | None, license_: str | None, force: bool
) -> None:
    """Write a draft version's manifest.json from its <lang>/<facet>/<file> layout.

    A version added with `gold new --draft` (or a directory laid out by hand, which becomes
    a draft) may be corrected until `gold release`; this rewrites its hashes and counts
    after an edit (then `dvc add` it again). A released version is refused (exit 2) without
    --force.

    \b
    Example:
      benchie gold manifest gold/2.1.0 --description "ACME test gold, draft 2"
    """
    path = Path(version_dir)
    manifest = build_manifest(path, description=description, license=license_)
    write_manifest(path, manifest, force=force)
    status = "released" if manifest.released else "draft"
    click.echo(
        f"benchie: wrote {display_name(str(path / MANIFEST))} ({len(manifest.files)} file(s), "
        f"{status}); if DVC tracks the version, `dvc add` it again",
        err=True,
    )


@gold.command(
    "new", epilog=EPILOG_EXIT, short_help="Add the gold files in DIR to the store as VERSION."
)
@click.argument("version")
@click.option(
    "--from",
    "source",
    required=True,
    type=click.Path(file_okay=False, exists=True),
    metavar="DIR",
    help="The version's files: <lang>/<facet>/FILE (facet default or entity; "
    "<lang>/reference/ for files kept but not scored) and top-level notes such as "
    "ATTRIBUTION.md.",
)
@click.option("--description", required=True, help="What the version is (in its manifest).")
@click.option("--license", "license_", required=True, help="Licence of the data.")
@click.option(
    "--draft", is_flag=True, help="Keep the version editable until `benchie gold release`."
)
@click.option(
    "--remote",
    default=None,
    metavar="NAME",
    help="DVC remote of this version only (e.g. a private one) [default: the repository's].",
)
@click.option("--no-dvc", is_flag=True, help="Do not track the version with DVC.")
@gold_dir_option
def gold_new(
    version: str,
    source: str,
    description: str,
    license_: str,
    draft: bool,
    remote: str | None,
    no_dvc: bool,
    gold_dir: str | None,
) -> None:
    """Add the gold files in DIR to the store as VERSION.

    Validates every file (errors: exit 1, nothing written), copies them into gold/VERSION
    with a manifest, tracks the version with DVC as an output of its own in gold.dvc (with
    --remote, on that remote only), and prints the next steps and the CHANGELOG entry.
    An existing version is never replaced.

    \b
    Example:
      benchie gold new 2.0.0 --from test-gold/ --description "ACME task test gold" \\
          --license "private" --remote private
    """
    from benchie_cli.gold.lifecycle import new_version

    root = resolve(gold_dir, new_version=True).for_writing()
    with _validation_errors_said():
        added = new_version(
            root,
            version,
            Path(source),
            description=description,
            license=license_,
            draft=draft,
            remote=remote,
            use_dvc=not no_dvc,
        )
    _report_added(added, root, released=not draft)


@gold.command("release", epilog=EPILOG_EXIT, short_help="Freeze a draft version.")
@click.argument("version")
@click.option("--description", default=None, help="What the version is [default: the draft's].")
@click.option("--license", "license_", default=None, help="Licence [default: the draft's].")
@click.option(
    "--remote",
    default=None,
    metavar="NAME",
    help="DVC remote of this version only (e.g. a private one) [default: the one gold.dvc "
    "names for it, else the repository's].",
)
@click.option("--no-dvc", is_flag=True, help="Do not track the version with DVC.")
@gold_dir_option
def gold_release(
    version: str,
    description: str | None,
    license_: str | None,
    remote: str | None,
    no_dvc: bool,
    gold_dir: str | None,
) -> None:
    """Freeze a draft VERSION: validate it again, write its manifest as released (it must
    have a description and a licence), track it with DVC and print the CHANGELOG entry.
    From then on it never changes.

    \b
    Example:
      benchie gold release 2.0.0
    """
    from benchie_cli.gold.lifecycle import release_version

    root = GoldStore(resolve(gold_dir)).directory(version).parent  # where the draft is
    with _validation_errors_said():
        added = release_version(
            root,
            version,
            description=description,
            license=license_,
            remote=remote,
            use_dvc=not no_dvc,
        )
    _report_added(added, root, released=True)


@contextlib.contextmanager
def _validation_errors_said() -> Iterator[None]:
    """``gold new`` and ``gold release``: a gold that fails validation has each of its
    errors printed (``PATH:LINE: error: ...``) before the one-line summary."""
    from benchie_cli.gold.lifecycle import ValidationFailed

    try:
        yield
    except ValidationFailed as exc:
        for diagnostic in exc.errors:
            click.echo(diagnostic.format(), err=True)
        raise


#: Validation warnings ``gold new`` and ``gold release`` print before a count of the rest.
WARNINGS_SHOWN = 10


def _relative(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it: commands to paste."""
    try:
        return display_name(str(path.resolve().relative_to(Path.cwd().resolve())))
    except ValueError:
        return display_name(str(path))


def _report_added(added: Added, root: Path, *, released: bool) -> None:
    """Say what ``gold new`` / ``gold release`` wrote (stderr) and print the next steps and
    the CHANGELOG entry (stdout, to paste)."""
    from benchie_cli.gold.lifecycle import changelog_stub, dvc_repo_of

    for diagnostic in added.warnings[:WARNINGS_SHOWN]:
        click.echo(diagnostic.format(), err=True)
    if len(added.warnings) > WARNINGS_SHOWN:
        click.echo(
            f"benchie: {len(added.warnings):,} warning(s) in all (`benchie validate --kind gold "
            "FILE` lists them); warnings do not stop a version, errors do",
            err=True,
        )
    status = "released" if released else "draft"
    gold_files = [e for e in added.manifest.files if e.kind == "gold"]
    click.echo(
        f"benchie: gold {added.version} ({status}): {len(gold_files)} gold file(s) in "
        f"{display_name(str(added.path))}, manifest sha256 {added.manifest_sha256}; "
        f"{added.dvc_note}",
        err=True,
    )
    if added.dvc_file is not None:
        staged = [_relative(added.dvc_file), _relative(root / ".gitignore")]
        repo = dvc_repo_of(root)
        if added.remote and repo is not None:  # the remote's name and URL are committed
            staged.append(_relative(repo / ".dvc" / "config"))  # (credentials are not)
        click.echo("Next steps:")
        click.echo(f"  dvc push {_relative(added.path)}")
        click.echo(f"  git add {' '.join(staged)} && git commit -m 'gold {added.version}'")
    if not released:
        click.echo(f"When it is final: benchie gold release {added.version}")
        return
    click.echo("CHANGELOG.md entry:")
    click.echo("")
    click.echo(changelog_stub(added), nl=False)


@gold.command(
    "diff", epilog=EPILOG_EXIT, short_help="Synset-level differences between two versions."
)
@click.argument("version_a", metavar="A")
@click.argument("version_b", metavar="B")
@click.option(
    "--lang", type=click.Choice(LANGUAGES), default=None, help="Only this language [default: all]."
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@gold_dir_option
def gold_diff(
    version_a: str, version_b: str, lang: str | None, fmt: str, gold_dir: str | None
) -> None:
    """Synset-level differences between gold versions A and B (default facet), per language
    and sentence: sentences added, removed or with a new text; synsets added, removed or
    changed (triple forms added and removed), in gold order. Exits 0 even when the versions
    differ: it is a report.

    \b
    Example:
      benchie gold diff 1.0.0 1.1.0 --lang zh
    """
    from benchie_cli.analysis.gold_diff import diff_as_json, diff_lines, diff_versions

    diffs = diff_versions(_store(gold_dir), version_a, version_b, lang)
    for d in diffs:  # a block its reader skipped shows as no difference: say it
        for line in d.notices():
            click.echo(f"benchie: {line}", err=True)
    if fmt == "json":
        doc = diff_as_json(version_a, version_b, diffs)
        click.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
        return
    for line in diff_lines(version_a, version_b, diffs):
        click.echo(line)


@gold.command("impact", epilog=EPILOG_EXIT, short_help="Score submissions under two gold versions.")
@click.argument("version_a", metavar="A")
@click.argument("version_b", metavar="B")
@click.argument("submissions", nargs=-1, required=True, metavar="SUBMISSION...")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True)
@click.option("--facet", type=click.Choice(FACET_NAMES), default=BASE_FACET, show_default=True)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@gold_dir_option
def gold_impact(
    version_a: str,
    version_b: str,
    submissions: tuple[str, ...],
    lang: str,
    facet: str,
    fmt: str,
    gold_dir: str | None,
) -> None:
    """Score each SUBMISSION (BenchIE TSV: PATH, NAME=PATH or a directory) under gold
    versions A and B: P/R/F1 under each and the difference, and the synsets (sentence id,
    synset number) whose matches by the system differ between the versions.

    \b
    Example:
      benchie gold impact 1.0.0 1.1.0 --lang zh examples/submissions/zh/
    """
    from benchie_cli.analysis.gold_diff import gold_impact as impact
    from benchie_cli.analysis.gold_diff import impact_as_json, impact_lines

    store = _store(gold_dir)
    batch = expand(submissions)
    gold_b = load_gold(gold_dir, version_b, None, lang, facet)
    with no_cyclic_gc():
        systems = impact(
            lambda version: store.resolve(version, lang, facet),
            version_a,
            version_b,
            ScoreOptions(lang, facet),
            batch,
            gold_b.mistake_check(),
        )
    for system in systems:  # a wrong --lang or format is a hint here as in `score`
        summarise_warnings(system.result, lang)
    if fmt == "json":
        doc = impact_as_json(version_a, version_b, lang, facet, systems)
        click.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
        return
    for line in impact_lines(version_a, version_b, systems):
        click.echo(line)
