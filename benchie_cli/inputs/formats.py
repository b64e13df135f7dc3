"""The names ``--input-format`` and ``convert --from`` accept, without the readers.

Kept apart from :mod:`benchie_cli.inputs.native` (whose regular expressions and classes cost a
few milliseconds to import) so that every command can declare its options while only a run
that meets a native file pays for the readers; ``native.REGISTRY`` is checked against
:data:`NATIVE_FORMATS` when it is built.
"""

from __future__ import annotations

#: The native formats, in detection order (see ``native.REGISTRY``).
NATIVE_FORMATS = (
    "jsonl",
    "openie5",
    "openie4",
    "reverb",
    "clausie",
    "props",
    "ollie",
    "openie6",
    "stanford",
    "carb",
)

#: BenchIE's own submission format, TSV (docs/formats.md), by the name ``--input-format``
#: gives it: a format's name, which happens to be its benchmark's too.
BENCHIE_TSV = "benchie"

#: ``auto`` (detect), BenchIE TSV (read as it always was), the native formats.
INPUT_FORMATS = ("auto", BENCHIE_TSV, *NATIVE_FORMATS)

#: Formats that only a benchmark's own scorer reads, with no native reader (nothing to align
#: to BenchIE's gold): ``allennlp``, OpenIE6's tagged lines, read by ``score --benchmark
#: carb`` as OpenIE6's copy of CaRB's scorer reads them. A name that becomes a native format
#: is dropped here, so that it is listed once.
SCORER_FORMATS = tuple(f for f in ("allennlp",) if f not in NATIVE_FORMATS)

#: What ``score --input-format`` accepts: :data:`INPUT_FORMATS`, and the formats a
#: benchmark's own scorer alone reads (a benchmark that does not read one refuses it).
SCORE_FORMATS = (*INPUT_FORMATS, *SCORER_FORMATS)
