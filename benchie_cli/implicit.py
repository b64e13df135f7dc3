"""``benchie strip-implicit``: split a submission into its explicit and implicit lines.

Explicit lines are written unchanged and in order, byte for byte (line ends, a BOM, a
missing final newline), so the output is still the system's own file minus what BenchIE
cannot judge (paper §4.1). Each removed line is written as
``LINE<TAB>TOKENS<TAB>original line``: its line number, the tokens absent from the sentence
(space-separated) and the line itself, so that nothing is lost and everything is explained.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchie_cli.errors import BenchieError
from benchie_cli.gold import Gold
from benchie_cli.submission import split_line
from benchie_cli.textio import display_name, iter_lines
from benchie_cli.tokens import ImplicitTest


@dataclass(slots=True)
class StripResult:
    kept: bytes
    removed: bytes
    kept_count: int
    removed_count: int
    unknown_ids: int


def implicit_test(gold: Gold, lang: str, *, case_sensitive: bool = False) -> ImplicitTest:
    """The implicit test for ``gold``'s sentences, keyed by sentence id."""
    return ImplicitTest(
        {sid: s.text for sid, s in gold.sentences.items()}, lang, case_sensitive=case_sensitive
    )


def strip_implicit(
    path: str, gold: Gold, lang: str, *, case_sensitive: bool = False
) -> StripResult:
    """Split ``path``; unusable lines raise :class:`BenchieError` (nothing is written then).

    Lines whose sentence id is not in the gold cannot be tested and are kept.
    """
    name = display_name(path)
    test = implicit_test(gold, lang, case_sensitive=case_sensitive)
    kept: list[bytes] = []
    removed: list[bytes] = []
    unknown = kept_count = 0
    for lineno, raw, original in iter_lines(path):
        fields = split_line(raw)
        if fields is not None:
            if len(fields) == 2:
                raise BenchieError(fields[1], path=name, line=lineno)
            sent_id, subject, relation, obj, _ = fields
            if sent_id not in gold.sentences:
                unknown += 1
            else:
                missing = test.missing(sent_id, subject + relation + obj)
                if missing:
                    removed.append(f"{lineno}\t{' '.join(missing)}\t".encode() + raw + b"\n")
                    continue
            kept_count += 1
        kept.append(original)
    if kept_count == 0 and not removed:
        raise BenchieError("no extraction in the file", path=name)
    return StripResult(b"".join(kept), b"".join(removed), kept_count, len(removed), unknown)
