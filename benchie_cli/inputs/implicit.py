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
from benchie_cli.gold.parse import Gold
from benchie_cli.inputs.mistakes import Retokenizer
from benchie_cli.inputs.submission import is_directive, line_message, split_confidence, split_line
from benchie_cli.textio import display_name, iter_lines
from benchie_cli.tokens import ImplicitTest


@dataclass(slots=True)
class StripResult:
    kept: bytes
    removed: bytes
    kept_count: int
    removed_count: int
    unknown_ids: int
    #: With ``--retokenize``: (slots mapped onto the sentence's tokens, slots left).
    retokenized: tuple[int, int] | None = None


def implicit_test(gold: Gold, lang: str, *, case_sensitive: bool = False) -> ImplicitTest:
    """The implicit test for ``gold``'s sentences, keyed by sentence id."""
    return ImplicitTest(
        {sid: s.text for sid, s in gold.sentences.items()}, lang, case_sensitive=case_sensitive
    )


def strip_implicit(
    path: str, gold: Gold, lang: str, *, case_sensitive: bool = False, retokenize: bool = False
) -> StripResult:
    """Split ``path``; unusable lines raise :class:`BenchieError` (nothing is written then).

    Lines whose sentence id is not in the gold cannot be tested and are kept. A confidence
    directive is kept too (the kept lines are still a file with confidences); the test reads
    each line without its confidence column. With ``retokenize`` each line is first mapped
    onto its sentence's tokens (``mistakes.Retokenizer``), and a kept line is written mapped,
    so that the kept file scores as ``score --retokenize`` scores the original.
    """
    name = display_name(path)
    test = implicit_test(gold, lang, case_sensitive=case_sensitive)
    kept: list[bytes] = []
    removed: list[bytes] = []
    unknown = kept_count = 0
    confident = started = False
    retokenizer = (
        Retokenizer({sid: s.text for sid, s in gold.sentences.items()}) if retokenize else None
    )
    for lineno, raw, original in iter_lines(path):
        if retokenizer is not None:
            mapped = retokenizer.line(raw)
            if mapped is not raw:
                original = mapped + original[len(original.rstrip(b"\r\n")) :]
                raw = mapped
        if not started and raw and not raw.isspace():
            started = True
            if is_directive(raw):
                confident = True
                kept.append(original)
                continue
        line = raw  # what the test reads: without a confidence column
        if confident:
            cut = split_confidence(raw)
            if cut is not None:
                if isinstance(cut[1], str):
                    raise BenchieError(cut[1], path=name, line=lineno)
                line = cut[0]
        fields = split_line(line)
        if fields is not None:
            if len(fields) == 2:  # (line 1's NUL: UTF-16 named, as every reader names it)
                raise BenchieError(line_message(fields, line, lineno), path=name, line=lineno)
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
    return StripResult(
        b"".join(kept),
        b"".join(removed),
        kept_count,
        len(removed),
        unknown,
        None if retokenizer is None else (retokenizer.mapped, retokenizer.left),
    )
