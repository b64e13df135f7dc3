"""``benchie platform score``: the scoring program of a Codabench competition
(``benchie_cli.platform.score``; the contract is docs/platform.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from benchie_cli import LANGUAGES, default_gold_version
from benchie_cli.cli.common import GOLD_VERSION_SHOWN, say
from benchie_cli.cli.group import EPILOG_EXIT, BenchieGroup
from benchie_cli.errors import BenchieError
from benchie_cli.registry import BASE_FACET, FACET_NAMES, PLATFORM_METRICS


@click.group(
    cls=BenchieGroup, epilog=EPILOG_EXIT, short_help="Programs for benchmark platforms (Codabench)."
)
def platform() -> None:
    """Programs for benchmark platforms (Codabench).

    \b
    Examples:
      benchie platform score /app/input /app/output
      benchie platform bundle -o bundle.zip
    """


@platform.command("score", epilog=EPILOG_EXIT, short_help="Codabench's scoring program.")
@click.argument("input_dir", metavar="INPUT", type=click.Path(file_okay=False, path_type=Path))
@click.argument("output_dir", metavar="OUTPUT", type=click.Path(file_okay=False, path_type=Path))
def platform_score(input_dir: Path, output_dir: Path) -> None:
    """Codabench's scoring program: score the participant's files in INPUT/res/ (en.tsv,
    de.tsv, zh.tsv; or in one folder or one .zip) against the gold that INPUT/ref/benchie.json
    pins (INPUT/ref/gold/ may hold a private gold store), and write
    OUTPUT/detailed_results.html, then OUTPUT/scores.json.

    A language the reference chooses but the submission lacks scores 0. Any error is one
    line on stderr, naming the participant's file, and no scores.json is written, so the
    platform marks the submission failed: exit 2 for a file that cannot be scored (or an
    unusable reference or zip), 1 for a gold whose sha256 is not the pinned one. See
    docs/platform.md.

    \b
    Example:
      benchie platform score /app/input /app/output
    """
    from benchie_cli.platform.program import score_platform
    from benchie_cli.platform.score import SCORES_NAME, SubmissionFailed

    try:
        scores = score_platform(input_dir, output_dir, say=say)
    except SubmissionFailed as exc:  # its line was said as it failed
        sys.exit(int(exc.exit_code))
    say(f"wrote {output_dir / SCORES_NAME} (mean_f1 {scores['mean_f1']:.4f})")


@platform.command("bundle", epilog=EPILOG_EXIT, short_help="Write a Codabench competition bundle.")
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="FILE.zip",
    help="The bundle to write, atomically.",
)
@click.option(
    "--gold-version",
    default=default_gold_version,
    show_default=GOLD_VERSION_SHOWN,
    metavar="V",
    help="Gold version the reference data pins.",
)
@click.option(
    "--lang",
    "langs",
    multiple=True,
    type=click.Choice(LANGUAGES),
    help="A language to score (repeatable) [default: en].",
)
@click.option(
    "--facet",
    "facets",
    multiple=True,
    type=click.Choice(FACET_NAMES),
    help=f"A facet to score (repeatable) [default: {BASE_FACET}].",
)
@click.option(
    "--metric",
    "metrics",
    multiple=True,
    type=click.Choice(PLATFORM_METRICS),
    help="A metric (repeatable): benchie, and carb for CaRB's numbers beside it (English) "
    "[default: benchie].",
)
@click.option(
    "--phase",
    "phases",
    multiple=True,
    metavar="NAME:START[:END]",
    help="A phase (repeatable, in order; dates YYYY-MM-DD): every phase but the last needs "
    "an END, and phases must not overlap [default: Test:2000-01-01, one phase open from a "
    "fixed date, so that builds are reproducible].",
)
@click.option("--title", default="BenchIE", show_default=True, help="The competition's title.")
@click.option(
    "--image",
    default=None,
    metavar="TAG",
    help="The scoring Docker image [default: benchie:<version>-codabench].",
)
@click.option(
    "--private-gold",
    default=None,
    metavar="DIR",
    type=click.Path(file_okay=False, path_type=Path),
    help="A gold store directory whose version V goes into the reference data as gold/ "
    "(private test gold); without it the reference data only pins the public gold's sha256.",
)
def platform_bundle(
    output: str,
    gold_version: str,
    langs: tuple[str, ...],
    facets: tuple[str, ...],
    metrics: tuple[str, ...],
    phases: tuple[str, ...],
    title: str,
    image: str | None,
    private_gold: Path | None,
) -> None:
    """Write a Codabench competition bundle: competition.yaml (version 2) with a logo, the
    terms (the gold's CC BY 4.0 licence), pages, one task whose scoring program runs
    `benchie platform score` in the --image container and whose reference data pins the
    gold's sha256 per language, the phases, one leaderboard with a column per score key
    (ranked by mean_f1), and a starting kit (input sentences, an example submission).

    The zip is deterministic: the same options and gold give the same bytes. Private gold
    enters the bundle only with --private-gold. See docs/platform.md.

    \b
    Examples:
      benchie platform bundle -o bundle.zip
      benchie platform bundle -o bundle.zip --lang en --lang de \\
        --phase Dev:2026-01-01:2026-02-01 --phase Test:2026-02-01
      benchie platform bundle -o bundle.zip --private-gold private-gold/
    """
    from benchie_cli.platform.bundle import (
        DEFAULT_PHASE,
        BundleOptions,
        default_image,
        parse_phase,
        write_bundle,
    )

    try:
        parsed = tuple(parse_phase(p) for p in phases or (DEFAULT_PHASE,))
    except ValueError as exc:
        raise BenchieError(str(exc)) from None
    if image is not None and not image.strip():
        raise BenchieError("--image: empty tag (an unset shell variable?)")
    if len(set(langs)) != len(langs) or len(set(facets)) != len(facets):
        raise BenchieError("--lang, --facet: a name is given twice")
    options = BundleOptions(
        gold_version=gold_version,
        languages=langs or ("en",),
        facets=facets or (BASE_FACET,),
        metrics=tuple(dict.fromkeys(("benchie", *metrics))),
        phases=parsed,
        title=title,
        image=image,
        private_gold=private_gold,
    )
    data = write_bundle(output, options)
    say(f"wrote {output} ({len(data):,} bytes)")
    tag = image or default_image()
    if "/" not in tag:  # a local name: no registry, nor a Docker Hub account, holds it
        say(
            f"note: the scoring image {tag} is a local name: Codabench's workers pull it, so "
            "push it to a registry they reach and give --image REGISTRY/NAME:TAG "
            "(docs/codabench.md, step 2)"
        )
