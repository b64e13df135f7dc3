"""A Codabench competition bundle (``benchie platform bundle -o bundle.zip``): one zip that
Codabench's v2 unpacker turns into a competition scored by ``benchie platform score``.

The zip holds, in this fixed order and with fixed timestamps (two builds with the same
options are byte for byte identical)::

    competition.yaml                 version 2; title, logo, terms, pages, tasks, phases,
                                     one leaderboard, docker_image, enable_detailed_results
    logo.png                         a small generated image (Codabench requires a logo)
    terms.md                         the gold's licence (CC BY 4.0) and attribution
    pages/overview.md, pages/evaluation.md, pages/data.md
    scoring_program/metadata.yaml    ``command: benchie platform score /app/input /app/output``
    reference_data/benchie.json      the gold version and each language's pinned sha256
    reference_data/gold/<V>/...      only with ``--private-gold``: the private gold store
    starting_kit/README.md, starting_kit/sentences/<L>.txt, starting_kit/example/<L>.tsv

The competition.yaml is written here, by a small emitter for this fixed structure (strings
in JSON's double quotes, which YAML reads the same; dates as plain ``YYYY-MM-DD``): no YAML
library is needed. docs/platform.md ("The competition bundle") describes the bundle.
"""

from __future__ import annotations

import datetime as dt
import io
import itertools
import json
import re
import struct
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchie_cli import __version__, default_gold_version
from benchie_cli.errors import BenchieError, printable_path
from benchie_cli.outputs import check_output
from benchie_cli.platform.score import (
    GOLD_STORE_NAME,
    SCORING_COMMAND,
    SPEC_NAME,
    PlatformSpec,
    parse_spec,
    score_keys,
    scoring_metadata,
)
from benchie_cli.registry import BASE_FACET, METRICS
from benchie_cli.textio import atomic_write

#: The folders and files of the bundle, as competition.yaml names them.
SCORING_PROGRAM = "scoring_program"
REFERENCE_DATA = "reference_data"
STARTING_KIT = "starting_kit"
LOGO = "logo.png"
TERMS = "terms.md"
PAGES = (
    ("Overview", "pages/overview.md"),
    ("Evaluation", "pages/evaluation.md"),
    ("Data", "pages/data.md"),
)
#: The phase given when ``--phase`` is not: one phase, open from a fixed date (a build
#: date would make two builds differ), without end.
DEFAULT_PHASE = "Test:2000-01-01"
DEFAULT_TITLE = "BenchIE"
LEADERBOARD_TITLE = "Results"
LEADERBOARD_KEY = "main"
#: Codabench's limits on a leaderboard (``src/apps/api/serializers/leaderboards.py``).
MAX_LEADERBOARD_TITLE = 64
MAX_LEADERBOARD_KEY = 36
MAX_COLUMN_TITLE = 36
#: The primary column: the leaderboard ranks by it.
PRIMARY_KEY = "mean_f1"
#: Every member's timestamp (the earliest a zip can hold) and mode.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
ZIP_MODE = 0o644
#: Lines of the example submission per language (a naive baseline, format only).
EXAMPLE_SENTENCES = 5


def default_image() -> str:
    """The scoring image's tag: the ``codabench`` variant of this package's image."""
    return f"benchie:{__version__}-codabench"


# --- phases ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Phase:
    name: str
    start: dt.date
    end: dt.date | None


def _date(text: str, what: str, given: str) -> dt.date:
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        raise ValueError(f"--phase {given!r}: {what} {text!r} is not a date YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"--phase {given!r}: {what} {text!r} is not a valid date") from None


#: A Docker image reference (``[HOST[:PORT]/]NAME[/NAME...][:TAG][@sha256:DIGEST]``), as
#: the distribution reference grammar defines it; the worker pulls what the bundle names.
_IMAGE = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]+)?/)?"
    r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*"
    r"(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[0-9a-f]{64})?"
)


def _check_text(option: str, text: str) -> None:
    """Refuse text the bundle's YAML and pages cannot hold: bytes of the command line that
    are not UTF-8 (Python carries them as lone surrogates), control characters."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BenchieError(f"{option}: not UTF-8 text ({printable_path(text)!r})") from None
    if any(not c.isprintable() for c in text):
        raise BenchieError(f"{option}: a control character in {printable_path(text)!r}")


def parse_phase(text: str) -> Phase:
    """``NAME:START[:END]`` (dates YYYY-MM-DD); ValueError says what is wrong."""
    parts = text.split(":")
    if len(parts) not in (2, 3):
        raise ValueError(f"--phase {text!r}: expected NAME:START[:END] (dates YYYY-MM-DD)")
    name = parts[0].strip()
    if not name:
        raise ValueError(f"--phase {text!r}: the phase needs a name")
    start = _date(parts[1], "start", text)
    end = _date(parts[2], "end", text) if len(parts) == 3 else None
    if end is not None and end <= start:
        raise ValueError(f"--phase {text!r}: end {end} is not after start {start}")
    return Phase(name, start, end)


def check_phases(phases: Sequence[Phase]) -> None:
    """Codabench's rules: every phase but the last has an end, and phases do not overlap
    (given in order: each starts at or after the end of the one before)."""
    if not phases:
        raise ValueError("at least one --phase is needed")
    names = [p.name for p in phases]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"--phase: phase name {dup[0]!r} given twice")
    for before, after in itertools.pairwise(phases):
        if before.end is None:
            raise ValueError(
                f"--phase {before.name!r}: every phase but the last needs an end "
                f"(NAME:START:END), as {after.name!r} follows it"
            )
        if after.start < before.end:
            raise ValueError(
                f"--phase {after.name!r} starts {after.start}, before {before.name!r} ends "
                f"{before.end}: phases must not overlap (give them in order)"
            )


# --- a tiny YAML emitter -----------------------------------------------------------------


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar: printable characters as they are (UTF-8), every other
    one escaped. (JSON's ASCII escapes would write a character beyond the BMP as two
    surrogate escapes, which YAML reads as two lone surrogates, not the character.)"""
    out = ['"']
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif c.isprintable() and c not in "\u2028\u2029\ufeff":
            out.append(c)
        elif ord(c) <= 0xFFFF:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(f"\\U{ord(c):08x}")
    out.append('"')
    return "".join(out)


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        return _quoted(value)
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return "[" + ", ".join(str(v) for v in value) + "]"
    raise TypeError(f"no YAML scalar for {value!r}")


def _is_block(value: Any) -> bool:
    return isinstance(value, dict) or (
        isinstance(value, list) and any(isinstance(v, dict) for v in value)
    )


def _emit(value: Any, indent: int, out: list[str]) -> None:
    pad = " " * indent
    if isinstance(value, dict):
        for key, item in value.items():
            if not re.fullmatch(r"[a-z_][a-z0-9_]*", key):
                raise ValueError(f"not a plain key: {key!r}")
            if _is_block(item):
                out.append(f"{pad}{key}:")
                _emit(item, indent + 2, out)
            else:
                out.append(f"{pad}{key}: {_scalar(item)}")
        return
    for item in value:  # a list of mappings
        lines: list[str] = []
        _emit(item, indent + 2, lines)
        out.append(f"{pad}- {lines[0][indent + 2 :]}")
        out.extend(lines[1:])


def to_yaml(doc: dict[str, Any]) -> str:
    """``doc`` (mappings, lists of mappings, strings, ints, bools, dates, lists of ints) as
    block YAML: keys plain, strings double-quoted as JSON quotes them."""
    out: list[str] = []
    _emit(doc, 0, out)
    return "\n".join(out) + "\n"


# --- the logo ----------------------------------------------------------------------------


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def logo_png(size: int = 32, rgb: tuple[int, int, int] = (0x2B, 0x59, 0xC3)) -> bytes:
    """A small solid-colour PNG (8-bit RGB), made here: no image library needed."""
    row = b"\x00" + bytes(rgb) * size  # filter type 0, then the pixels
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
        + _png_chunk(b"IDAT", zlib.compress(row * size, 9))
        + _png_chunk(b"IEND", b"")
    )


# --- the texts ---------------------------------------------------------------------------

TERMS_TEXT = """\
# Terms

## The data

The BenchIE gold and its input sentences are the BenchIE authors' data, shared under the
Creative Commons Attribution 4.0 International licence (CC BY 4.0,
https://creativecommons.org/licenses/by/4.0/):

> Kiril Gashteovski, Mingying Yu, Bhushan Kotnis, Carolin Lawrence, Mathias Niepert and
> Goran Glavaš. 2022. *BenchIE: A Framework for Multi-Faceted Fact-Based Open Information
> Extraction Evaluation.* In Proceedings of ACL 2022, pages 4472-4490.
> Data: https://github.com/gkiril/benchie

Gold versions after 1.0.0 are adaptations of the original (format repairs; every fact is the
authors'), shared under the same licence. Keep this attribution with any copy of the data.

## Scoring

Submissions are scored by benchie-cli (MIT licence), `benchie platform score`. It neither
contains nor derives from the BenchIE authors' evaluation code.

## Participation

By submitting, you agree that your scores and your team name are shown on the leaderboard.
"""


def _overview(title: str, spec: PlatformSpec, phases: Sequence[Phase]) -> str:
    langs = ", ".join(spec.languages)
    phase_lines = "\n".join(
        f"- **{p.name}**: from {p.start}" + (f" to {p.end}" if p.end else "") for p in phases
    )
    files = ", ".join(f"`{lang}.tsv`" for lang in spec.languages)
    return f"""\
# {title}

Open Information Extraction, scored with BenchIE: fact-level evaluation against the BenchIE
gold (version {spec.gold_version}) for {langs}.

Run your system on the input sentences (in the starting kit), write one BenchIE TSV file per
language ({files}: `sent_id<TAB>subject<TAB>relation<TAB>object` a line), zip them and
submit the zip. A language you leave out scores 0.

Check your files before you submit, with the scorer this competition runs (benchie-cli
{__version__}: the organisers say where to get it; its container image, named in this
competition's settings, has it as `benchie`):

    benchie validate --lang en en.tsv

Phases:

{phase_lines}
"""


def _evaluation(spec: PlatformSpec) -> str:
    columns = "\n".join(f"- `{key}`" for key in score_keys(spec))
    carb = (
        "\nCaRB's numbers (`en_carb_*`) are computed beside BenchIE's for English, with "
        "CaRB's own matching.\n"
        if spec.carb
        else ""
    )
    return f"""\
# Evaluation

BenchIE scores facts, not lines: a system earns one true positive per gold fact synset it
states, however many of the synset's acceptable triples it extracts. An extraction is
correct when some gold triple of its sentence accepts it slot by slot (subject, relation,
object), token for token after whitespace normalisation. Extractions with a token absent
from their sentence (implicit extractions) are removed before scoring; extractions of an
unknown sentence id are counted, never scored.

- precision = correct extractions / scored extractions
- recall = gold synsets covered / gold synsets
- F1 = the harmonic mean of the two

Facets scored: {", ".join(spec.facets)}. The leaderboard ranks by `mean_f1`: the mean over
{", ".join(spec.languages)} of the F1 of the `{spec.main_facet}` facet, a missing language
counting 0.
{carb}
Leaderboard columns (`scores.json` keys):

{columns}

Each submission also has detailed results: per language the file scored, its sha256, the
counts (TP, FP, FN, extractions, implicit extractions removed, unknown ids) and the report's
signature, which pins the gold and the scorer. The scorer is `{SCORING_COMMAND}`
(benchie-cli {__version__}); its definition of the metric is docs/metric.md of benchie-cli.
"""


def _data(spec: PlatformSpec, private: bool) -> str:
    where = (
        "The gold used for scoring is kept private: it is part of this competition's reference "
        "data, never shown to participants."
        if private
        else "The gold is public: `benchie gold info` lists it, and the reference data pins "
        "each language's gold file by its sha256."
    )
    pins = "\n".join(f"- {lang}: `{spec.gold_sha256[lang]}`" for lang in spec.languages)
    return f"""\
# Data

The starting kit holds, per language, the input sentences in gold order: `sentences/L.txt`,
one sentence a line (what `benchie sentences --lang L` writes), and `sentences/L.tsv`,
`sent_id<TAB>sentence` (`--format tsv`: the ids a submission uses); and a tiny example
submission (`example/L.tsv`: a naive baseline of a few lines, to show the format only).

{where}

Gold version {spec.gold_version}; sha256 of each language's default-facet gold file:

{pins}

Licence: CC BY 4.0, the BenchIE authors' data (see the terms).
"""


def _starting_kit_readme(spec: PlatformSpec) -> str:
    checks = "\n".join(f"    benchie validate --lang {lang} {lang}.tsv" for lang in spec.languages)
    files = " ".join(f"{lang}.tsv" for lang in spec.languages)
    return f"""\
# Starting kit

- `sentences/L.txt`: the input sentences of language L, one a line, in gold order: what
  `benchie sentences --lang L --gold-version {spec.gold_version}` writes.
- `sentences/L.tsv`: the same with their ids, `sent_id<TAB>sentence` (`--format tsv`).
- `example/L.tsv`: an example submission (a naive baseline of a few lines, not a good one):
  `sent_id<TAB>subject<TAB>relation<TAB>object`, one extraction a line.

Write one file per language, check each with the scorer this competition runs (benchie-cli
{__version__}: the organisers say where to get it; this competition's container image has it
as `benchie`):

{checks}

then submit them in one zip:

    zip submission.zip {files}
"""


def _example_tsv(sentences: list[tuple[str, str]]) -> str:
    """A naive baseline: the first word, the second, and the rest of the sentence."""
    lines = []
    for sent_id, text in sentences:
        words = text.split()
        if len(words) >= 3:
            lines.append(f"{sent_id}\t{words[0]}\t{words[1]}\t{' '.join(words[2:])}")
        if len(lines) == EXAMPLE_SENTENCES:
            break
    return "".join(f"{line}\n" for line in lines)


# --- the bundle --------------------------------------------------------------------------


@dataclass(frozen=True)
class BundleOptions:
    gold_version: str | None = None
    languages: tuple[str, ...] = ("en",)
    facets: tuple[str, ...] = (BASE_FACET,)
    metrics: tuple[str, ...] = ("benchie",)
    phases: tuple[Phase, ...] = (parse_phase(DEFAULT_PHASE),)
    title: str = DEFAULT_TITLE
    image: str | None = None
    private_gold: Path | None = None


def _private_files(root: Path, version: str) -> list[tuple[str, bytes]]:
    """Every regular file of the private store's version directory, in path order."""
    top = root / version
    if not top.is_dir():
        raise BenchieError(f"no gold version {version} here", path=str(root))
    files = []
    for path in sorted(top.rglob("*")):
        if path.is_symlink():
            raise BenchieError("a symbolic link: copy the file itself", path=str(path))
        if path.is_file():
            rel = path.relative_to(root).as_posix()
            files.append((f"{REFERENCE_DATA}/{GOLD_STORE_NAME}/{rel}", path.read_bytes()))
    return files


def build_bundle(options: BundleOptions) -> bytes:
    """The bundle's zip bytes (deterministic for the same options and gold)."""
    from benchie_cli import api

    try:
        check_phases(options.phases)
    except ValueError as exc:
        raise BenchieError(str(exc)) from None
    if not options.title.strip():
        raise BenchieError("--title: empty")
    _check_text("--title", options.title)
    for phase in options.phases:
        _check_text("--phase", phase.name)
    if options.image is not None and (
        len(options.image) > 255 or not _IMAGE.fullmatch(options.image)
    ):
        raise BenchieError(
            f"--image {printable_path(options.image)[:80]!r}: not a Docker image reference "
            "(NAME[:TAG], lowercase name, no spaces or line breaks, at most 255 characters), "
            "which Codabench's worker would fail to pull"
        )
    version = options.gold_version or default_gold_version()
    langs = tuple(options.languages)
    gold_dir = options.private_gold
    if gold_dir is not None and not gold_dir.is_dir():
        raise BenchieError("--private-gold: not a gold store directory", path=str(gold_dir))
    golds = {lang: api.load_gold(lang, version, BASE_FACET, gold_dir=gold_dir) for lang in langs}
    # Every file the task will score, now: a facet or metric without gold (BenchIE-E's is
    # not published), or a private file that differs from its manifest, would otherwise
    # fail every participant's submission, not this command.
    for lang, gold in golds.items():
        for facet in options.facets:
            api.load_gold(lang, version, facet, gold_dir=gold_dir)
        if any(METRICS[m].reference for m in options.metrics) and lang == "en":
            gold.carb_reference  # noqa: B018 (resolved and checked against the manifest)
    store = next(iter(golds.values())).store
    if store is not None:
        problems = store.verify([version])
        if problems:
            name, problem = problems[0]
            raise BenchieError(problem, path=str(store.root / name))
    spec_doc: dict[str, Any] = {
        "gold_version": version,
        "gold_sha256": {lang: golds[lang].sha256 for lang in langs},
        "languages": list(langs),
        "facets": list(options.facets),
        "metrics": list(options.metrics),
    }
    spec_bytes = (json.dumps(spec_doc, indent=2) + "\n").encode()
    try:
        spec = parse_spec(spec_bytes)
    except ValueError as exc:
        raise BenchieError(str(exc)) from None
    image = options.image or default_image()

    keys = score_keys(spec)
    columns = []
    for index, key in enumerate(keys):
        title = "mean F1" if key == PRIMARY_KEY else key.replace("_", " ")
        columns.append(
            {
                "title": title[:MAX_COLUMN_TITLE],
                "key": key,
                "index": index,
                "sorting": "desc",
                "precision": 4,
            }
        )
    phases = []
    for index, phase in enumerate(options.phases):
        entry: dict[str, Any] = {"index": index, "name": phase.name, "start": phase.start}
        if phase.end is not None:
            entry["end"] = phase.end
        entry["tasks"] = [0]
        entry["starting_kit"] = STARTING_KIT
        phases.append(entry)
    competition: dict[str, Any] = {
        "version": 2,
        "title": options.title,
        "description": "Open Information Extraction scored with BenchIE (fact-level).",
        "image": LOGO,
        "terms": TERMS,
        "docker_image": image,
        "enable_detailed_results": True,
        "pages": [{"title": t, "file": f} for t, f in PAGES],
        "tasks": [
            {
                "index": 0,
                "name": f"BenchIE {version} ({', '.join(langs)})",
                "description": "Score one BenchIE TSV file per language.",
                "scoring_program": SCORING_PROGRAM,
                "reference_data": REFERENCE_DATA,
            }
        ],
        "phases": phases,
        "leaderboards": [
            {
                "index": 0,
                "title": LEADERBOARD_TITLE,
                "key": LEADERBOARD_KEY,
                "primary_index": keys.index(PRIMARY_KEY),
                "columns": columns,
            }
        ],
    }
    members: list[tuple[str, bytes]] = [
        ("competition.yaml", to_yaml(competition).encode()),
        (LOGO, logo_png()),
        (TERMS, TERMS_TEXT.encode()),
        (PAGES[0][1], _overview(options.title, spec, options.phases).encode()),
        (PAGES[1][1], _evaluation(spec).encode()),
        (PAGES[2][1], _data(spec, gold_dir is not None).encode()),
        (f"{SCORING_PROGRAM}/metadata.yaml", scoring_metadata().encode()),
        (f"{REFERENCE_DATA}/{SPEC_NAME}", spec_bytes),
    ]
    if gold_dir is not None:
        members += _private_files(gold_dir, version)
    members.append((f"{STARTING_KIT}/README.md", _starting_kit_readme(spec).encode()))
    for lang in langs:
        sentences = [(s.sent_id, s.text) for s in golds[lang].parsed.sentences.values()]
        txt = "".join(f"{text}\n" for _, text in sentences)
        tsv = "".join(f"{sent_id}\t{text}\n" for sent_id, text in sentences)
        members.append((f"{STARTING_KIT}/sentences/{lang}.txt", txt.encode()))
        members.append((f"{STARTING_KIT}/sentences/{lang}.tsv", tsv.encode()))
        members.append((f"{STARTING_KIT}/example/{lang}.tsv", _example_tsv(sentences).encode()))
    return _zip(members)


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o100000 | ZIP_MODE) << 16
            info.create_system = 3  # Unix, whatever the build machine
            zf.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return buffer.getvalue()


def write_bundle(output: str, options: BundleOptions) -> bytes:
    """Build the bundle and write it atomically to ``output``; returns its bytes. The output
    is checked first: never into a gold store (a released manifest replaced by a zip)."""
    check_output(output, stores=[options.private_gold])
    data = build_bundle(options)
    atomic_write(output, data)
    return data
