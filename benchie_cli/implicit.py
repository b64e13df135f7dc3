"""``benchie strip-implicit``: split a submission into its explicit and implicit lines.

Explicit lines are written unchanged and in order, so the output is still the system's own
file minus what BenchIE cannot judge (paper §4.1). Each removed line is written as
``LINE<TAB>TOKENS<TAB>original line``: its line number, the tokens absent from the sentence
(space-separated) and the line itself, so that nothing is lost and everything is explained.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchie_cli.errors import BenchieError
from benchie_cli.gold import Gold
from benchie_cli.textio import decode_line, display_name, iter_raw_lines
from benchie_cli.tokens import implicit_tokens


@dataclass(slots=True)
class StripResult:
    kept: bytes
    removed: bytes
    kept_count: int
    removed_count: int
    unknown_ids: int


def strip_implicit(
    path: str, gold: Gold, lang: str, *, case_sensitive: bool = False
) -> StripResult:
    """Split ``path``; unusable lines raise :class:`BenchieError` (nothing is written then).

    Lines whose sentence id is not in the gold cannot be tested and are kept.
    """
    name = display_name(path)
    kept: list[bytes] = []
    removed: list[bytes] = []
    unknown = 0
    counts = [0, 0]
    tokens_of: dict[str, frozenset[str]] = {}
    for lineno, raw in iter_raw_lines(path):
        if raw.strip():
            text = decode_line(raw, name, lineno)
            cols = text.split("\t")
            if len(cols) < 4:
                raise BenchieError(
                    f"{len(cols)} TAB-separated columns, need 4: "
                    "sent_id, subject, relation, object",
                    path=name,
                    line=lineno,
                )
            sent_id = cols[0].strip()
            sentence = gold.sentences.get(sent_id)
            if sentence is None:
                unknown += 1
            else:
                known = tokens_of.get(sent_id)
                if known is None:
                    known = tokens_of[sent_id] = frozenset(
                        implicit_tokens(sentence.text, lang, case_sensitive=case_sensitive)
                    )
                missing = list(
                    dict.fromkeys(
                        t
                        for t in implicit_tokens(
                            " ".join(cols[1:]), lang, case_sensitive=case_sensitive
                        )
                        if t not in known
                    )
                )
                if missing:
                    removed.append(f"{lineno}\t{' '.join(missing)}\t".encode() + raw + b"\n")
                    counts[1] += 1
                    continue
            counts[0] += 1
        kept.append(raw + b"\n")
    if counts == [0, 0]:
        raise BenchieError("no extraction in the file", path=name)
    return StripResult(b"".join(kept), b"".join(removed), counts[0], counts[1], unknown)
