"""The names ``--input-format`` and ``convert --from`` accept, without the readers.

Kept apart from :mod:`benchie_cli.inputs.native` (whose regular expressions and classes cost a
few milliseconds to import) so that every command can declare its options while only a run
that meets a native file pays for the readers; ``native.REGISTRY`` is checked against
:data:`NATIVE_FORMATS` when it is built.
"""

from __future__ import annotations

#: The native formats, in detection order (see ``native.REGISTRY``).
NATIVE_FORMATS = (
    "llm-text",
    "jsonl",
    "json",
    "allennlp",
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

#: Formats read by rules that have a version (an LLM's answers): the version of each, which
#: every signature of a score of such a file names (``input:llm-text@1``), since another
#: version of the rules may read the same file otherwise (docs/llm-text.md).
VERSIONS = {"llm-text": 1}


def signed(fmt: str) -> str:
    """A format as a signature names it: with its rules' version where they have one."""
    version = VERSIONS.get(fmt)
    return fmt if version is None else f"{fmt}@{version}"


#: The formats of OpenIE 4's and OpenIE 5's columns, which the original scorers read by
#: readers of their own (the arguments they keep differ): ``auto`` tells them apart by the
#: whole file (``benchmarks.corpus.detect_format``), not by its first lines.
OPENIE_FORMATS = ("openie4", "openie5")

#: CaRB's reader of each format the tab-keyed benchmarks may also read through it (as the
#: suite does, docs/suite.md): OpenIE 4, OpenIE 5 and CaRB's tab format.
CARB_READ = {"openie4": "openie4", "openie5": "openie5", "carb": "tabbed"}
