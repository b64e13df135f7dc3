"""The checks of a gold file beyond its loader's: gold tokens absent from their sentence, and
one form listed under several synsets of a sentence (``benchie validate --kind gold``; ``gold
new`` and ``gold release`` refuse a file with errors).

The checks stay linear in the file whatever it holds: the duplicate-form check lists at most
``DUPLICATE_CHECK_LIMIT`` forms a triple and ``DUPLICATE_CHECK_BUDGET`` forms a file (then
stops, with one ``check-limit`` warning saying where), and reports at most
``DUPLICATES_SHOWN`` synsets a triple line, then one warning that counts the others. Slot
issues are bounded likewise by the loader (``slots.ISSUES_SHOWN``, ``slots.QUOTE_LIMIT``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from benchie_cli.errors import BenchieError, Diagnostic
from benchie_cli.gold.parse import Gold, GoldSentence, load_gold
from benchie_cli.slots import product_forms
from benchie_cli.textio import display_name
from benchie_cli.tokens import ImplicitTest

#: Forms per triple the duplicate-form check lists; larger triples are skipped by it.
DUPLICATE_CHECK_LIMIT = 1 << 12

#: Forms the duplicate-form check lists in one file; the real gold lists at most 167,814
#: (English). Past it the check stops: its memory (one entry per form of a sentence) and time
#: stay bounded, ~100 MB and a few seconds at most.
DUPLICATE_CHECK_BUDGET = 1 << 19

#: ``duplicate-form`` warnings one triple line gets, one per earlier synset listing one of
#: its forms; the others are counted in one more warning. The real gold has at most 3 a line.
DUPLICATES_SHOWN = 3


class FileReport:
    """One file's findings, with running counts of its errors and warnings.

    ``validate`` asks for the error count after every line (``--max-errors``): a count
    recomputed from the list would make a file of N findings take time quadratic in N
    (100,000 duplicate lines took minutes). Findings are therefore added only through
    :meth:`add` and :meth:`extend`, which keep the counts, and :attr:`diagnostics` is
    read-only.
    """

    __slots__ = ("_diagnostics", "_errors", "_warnings", "kind", "path", "retokenized", "truncated")

    def __init__(self, path: str, kind: str, diagnostics: Iterable[Diagnostic] = ()) -> None:
        self.path = path
        self.kind = kind
        self.truncated = False
        #: With ``--retokenize``: (slots mapped onto the sentence's tokens, slots left).
        self.retokenized: tuple[int, int] | None = None
        self._diagnostics: list[Diagnostic] = []
        self._errors = 0
        self._warnings = 0
        self.extend(diagnostics)

    @property
    def diagnostics(self) -> Sequence[Diagnostic]:
        """The findings in the order they were added (or sorted by :meth:`sort`)."""
        return self._diagnostics

    @property
    def errors(self) -> int:
        return self._errors

    @property
    def warnings(self) -> int:
        return self._warnings

    def add(self, diagnostic: Diagnostic) -> None:
        """Add one finding, counting it: the only way findings enter the report."""
        self._diagnostics.append(diagnostic)
        if diagnostic.severity == "error":
            self._errors += 1
        elif diagnostic.severity == "warning":
            self._warnings += 1

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        for diagnostic in diagnostics:
            self.add(diagnostic)

    def sort(self, key: Callable[[Diagnostic], Any]) -> None:
        """Reorder the findings (stable); the counts do not change."""
        self._diagnostics.sort(key=key)


def _absent_tokens(gold: Gold, sentence: GoldSentence, test: ImplicitTest) -> list[Diagnostic]:
    """Gold triples with a token their sentence lacks (the implicit test run on the gold)."""
    out = []
    for cluster in sentence.clusters:
        for triple in cluster.triples:
            words = [t for s in triple.slots for t in s.full_tokens()]
            missing = test.missing(sentence.sent_id, words)
            if missing:
                out.append(
                    Diagnostic(
                        gold.path,
                        triple.line,
                        "warning",
                        "absent-token",
                        f"token{'s' if len(missing) > 1 else ''} not in sentence "
                        f"{sentence.sent_id}: {' '.join(missing)}",
                    )
                )
    return out


def _duplicate_forms(gold: Gold) -> list[Diagnostic]:
    """Forms that two synsets of one sentence both list: an extraction of such a form
    covers only the first synset (see ``matching``), which the annotator rarely meant."""
    out = []
    listed = 0  # forms listed in the file, against DUPLICATE_CHECK_BUDGET
    for sentence in gold.sentences.values():
        owner: dict[tuple[str, ...], int] = {}
        reported: set[tuple[int, int]] = set()
        for c, cluster in enumerate(sentence.clusters):
            for triple in cluster.triples:
                if listed >= DUPLICATE_CHECK_BUDGET:
                    out.append(
                        Diagnostic(
                            gold.path,
                            triple.line,
                            "warning",
                            "check-limit",
                            f"over {DUPLICATE_CHECK_BUDGET} forms listed: the duplicate-form "
                            "check stops here and skips the rest of the file",
                        )
                    )
                    return out
                forms = product_forms(triple.slots, DUPLICATE_CHECK_LIMIT) or []
                listed += len(forms)
                found = 0  # earlier synsets first found listing one of this line's forms
                for form in forms:
                    first = owner.setdefault(form, c)
                    if first == c or (first, c) in reported:
                        continue
                    reported.add((first, c))
                    found += 1
                    if found <= DUPLICATES_SHOWN:
                        out.append(
                            Diagnostic(
                                gold.path,
                                triple.line,
                                "warning",
                                "duplicate-form",
                                f"form ({' ; '.join(form)}) is also listed in synset "
                                f"{first + 1} of sentence {sentence.sent_id} (header line "
                                f"{sentence.clusters[first].line}); it covers that synset only",
                            )
                        )
                if found > DUPLICATES_SHOWN:
                    out.append(
                        Diagnostic(
                            gold.path,
                            triple.line,
                            "warning",
                            "duplicate-form",
                            f"forms of this line are also listed in {found - DUPLICATES_SHOWN} "
                            f"more earlier synsets of sentence {sentence.sent_id}; each covers "
                            "the earlier synset only",
                        )
                    )
    return out


def validate_gold(path: str, lang: str, *, case_sensitive: bool = False) -> FileReport:
    report = FileReport(display_name(path), "gold")
    try:
        gold = load_gold(path)
    except BenchieError as exc:
        report.add(Diagnostic(report.path, exc.line, "error", "unreadable", exc.message))
        return report
    report.extend(gold.diagnostics)
    if gold.diagnostics_omitted:  # the loader keeps a bounded number (gold.MAX_DIAGNOSTICS)
        report.add(
            Diagnostic(
                report.path,
                None,
                "error",
                "too-many-findings",
                f"{gold.diagnostics_omitted:,} more findings of the loader are not listed; "
                "fix the ones listed and validate again",
            )
        )
    texts = {sid: s.text for sid, s in gold.sentences.items()}
    test = ImplicitTest(texts, lang, case_sensitive=case_sensitive)
    for sentence in gold.sentences.values():
        report.extend(_absent_tokens(gold, sentence, test))
    report.extend(_duplicate_forms(gold))
    # Stable: on one line, the loader's findings, then absent tokens, then duplicate forms.
    report.sort(key=lambda d: d.line or 0)
    return report
