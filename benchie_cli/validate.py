"""``benchie validate``: every problem of a gold or submission file, one per line.

Gold checks are the loader's own (malformed headers, stray lines, brackets, whitespace,
duplicate ids, empty synsets) plus two that look across lines: gold tokens absent from their
sentence, and one form listed under several synsets of a sentence. Submission checks are the
reader's (columns, bytes) plus those that need the gold: unknown sentence ids and implicit
extractions, and duplicate lines.

The gold checks stay linear in the file whatever it holds: the duplicate-form check lists at
most ``DUPLICATE_CHECK_LIMIT`` forms a triple and ``DUPLICATE_CHECK_BUDGET`` forms a file
(then stops, with one ``check-limit`` warning saying where), and reports at most
``DUPLICATES_SHOWN`` synsets a triple line, then one warning that counts the others. Slot
issues are bounded likewise by the loader (``slots.ISSUES_SHOWN``, ``slots.QUOTE_LIMIT``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchie_cli.errors import BenchieError, Diagnostic
from benchie_cli.gold.parse import Gold, GoldSentence, load_gold
from benchie_cli.inputs.implicit import implicit_test
from benchie_cli.inputs.mistakes import MistakeCheck, Retokenizer, nothing_scorable, read_head
from benchie_cli.inputs.submission import FileFacts, read_submission
from benchie_cli.slots import product_forms
from benchie_cli.textio import display_name, iter_lines, spool
from benchie_cli.tokens import ImplicitTest, language_hint, mostly_implicit

#: Forms per triple the duplicate-form check lists; larger triples are skipped by it.
DUPLICATE_CHECK_LIMIT = 1 << 12

#: Forms the duplicate-form check lists in one file; the real gold lists at most 167,814
#: (English). Past it the check stops: its memory (one entry per form of a sentence) and time
#: stay bounded, ~100 MB and a few seconds at most.
DUPLICATE_CHECK_BUDGET = 1 << 19

#: ``duplicate-form`` warnings one triple line gets, one per earlier synset listing one of
#: its forms; the others are counted in one more warning. The real gold has at most 3 a line.
DUPLICATES_SHOWN = 3


@dataclass(slots=True)
class FileReport:
    path: str
    kind: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    truncated: bool = False
    #: With ``--retokenize``: (slots mapped onto the sentence's tokens, slots left).
    retokenized: tuple[int, int] | None = None

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")


def detect_kind(path: str) -> str:
    """``gold`` when the first non-blank line is a sentence line, else ``submission``.

    It reads the file's start: a caller with a pipe spools it first (``textio.spool``).
    """
    try:
        for _, content, _ in iter_lines(path):
            if content.strip():
                return "gold" if content.startswith(b"sent_id:") else "submission"
    except BenchieError:
        pass  # unreadable: reading it as a submission reports the problem with its line
    return "submission"


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
        report.diagnostics.append(
            Diagnostic(report.path, exc.line, "error", "unreadable", exc.message)
        )
        return report
    report.diagnostics.extend(gold.diagnostics)
    if gold.diagnostics_omitted:  # the loader keeps a bounded number (gold.MAX_DIAGNOSTICS)
        report.diagnostics.append(
            Diagnostic(
                report.path,
                None,
                "error",
                "too-many-findings",
                f"{gold.diagnostics_omitted:,} more findings of the loader are not listed; "
                "fix the ones listed and validate again",
            )
        )
    test = implicit_test(gold, lang, case_sensitive=case_sensitive)
    for sentence in gold.sentences.values():
        report.diagnostics.extend(_absent_tokens(gold, sentence, test))
    report.diagnostics.extend(_duplicate_forms(gold))
    # Stable: on one line, the loader's findings, then absent tokens, then duplicate forms.
    report.diagnostics.sort(key=lambda d: d.line or 0)
    return report


def validate_submission(
    path: str,
    gold: Gold | None,
    lang: str,
    *,
    case_sensitive: bool = False,
    max_errors: int = 0,
    mistakes: MistakeCheck | None = None,
    retokenize: bool = False,
) -> FileReport:
    """Check a submission; ``gold`` enables the unknown-id and implicit checks, and
    ``mistakes`` the checks for a file's likely mistakes (on its first lines, so a pipe is
    spooled first). ``retokenize`` maps slots onto their sentence's tokens first, as
    ``score --retokenize`` does, so the findings are those of the file that will be scored.
    """
    if mistakes is not None:
        spool(path)
    retokenizer = (
        Retokenizer({sid: s.text for sid, s in gold.sentences.items()})
        if retokenize and gold is not None
        else None
    )
    facts = FileFacts(path)
    report = FileReport(display_name(path), "submission")
    seen: dict[tuple[str, str, str, str], int] = {}
    test = implicit_test(gold, lang, case_sensitive=case_sensitive) if gold is not None else None
    try:
        for item in read_submission(path, facts):
            if isinstance(item, Diagnostic):
                report.diagnostics.append(item)
            else:
                where = (report.path, item.line)
                if retokenizer is not None:
                    mapped = [
                        " ".join(retokenizer.slot(item.sent_id, slot.split()))
                        for slot in (item.subject, item.relation, item.object)
                    ]
                    item = item._replace(subject=mapped[0], relation=mapped[1], object=mapped[2])
                for name, value in (
                    ("subject", item.subject),
                    ("relation", item.relation),
                    ("object", item.object),
                ):
                    if not value:
                        report.diagnostics.append(
                            Diagnostic(
                                *where,
                                "warning",
                                "empty-slot",
                                f"empty {name}; score counts it as is",
                            )
                        )
                key = (item.sent_id, item.subject, item.relation, item.object)
                first = seen.setdefault(key, item.line)
                if first != item.line:
                    report.diagnostics.append(
                        Diagnostic(
                            *where,
                            "warning",
                            "duplicate-line",
                            f"same extraction as line {first} "
                            "(counted again: a second FP if wrong)",
                        )
                    )
                if gold is not None and test is not None:
                    sentence = gold.sentences.get(item.sent_id)
                    if sentence is None:
                        report.diagnostics.append(
                            Diagnostic(
                                *where,
                                "warning",
                                "unknown-sentence-id",
                                f"sentence id {item.sent_id!r} is not in the gold; "
                                "score leaves it out",
                            )
                        )
                    else:
                        missing = test.missing(
                            item.sent_id, f"{item.subject} {item.relation} {item.object}".split()
                        )
                        if missing:
                            report.diagnostics.append(
                                Diagnostic(
                                    *where,
                                    "warning",
                                    "implicit",
                                    f"implicit extraction (not in sentence {item.sent_id}: "
                                    f"{' '.join(missing)}); score strips it",
                                )
                            )
            if max_errors and report.errors >= max_errors:
                report.truncated = True
                break
    except BenchieError as exc:
        if exc.line is None:  # the file itself is unusable (a device): not a finding
            raise
        # Content that stops the reader (a line over the limit) is a finding like bad bytes;
        # nothing after it can be read line by line.
        report.diagnostics.append(
            Diagnostic(
                report.path, exc.line, "error", "unreadable", f"{exc.message}; not read further"
            )
        )
    implicit = sum(1 for d in report.diagnostics if d.code == "implicit")
    findings = [] if mistakes is None else mistakes.check(read_head(path))
    if retokenizer is not None:
        report.retokenized = (retokenizer.mapped, retokenizer.left)
    report.diagnostics.extend(
        Diagnostic(report.path, f.line, "warning", f.code, f.message) for f in findings
    )
    if mostly_implicit(implicit, facts.extractions) and not any(
        f.code in ("wrong-language", "shifted-ids") for f in findings
    ):
        report.diagnostics.append(
            Diagnostic(
                report.path,
                None,
                "warning",
                "suspicious-language",
                language_hint(implicit, facts.extractions, lang),
            )
        )
    unknown = sum(1 for d in report.diagnostics if d.code == "unknown-sentence-id")
    n = facts.extractions
    if (
        gold is not None
        and not report.truncated
        and nothing_scorable(n, unknown, implicit, findings)
    ):  # what `score` refuses (docs/formats.md): an error here too, not a pass
        report.diagnostics.append(
            Diagnostic(
                report.path,
                None,
                "error",
                "nothing-scorable",
                f"none of its {n} extraction{'s' if n != 1 else ''} can be scored (each has a "
                "sentence id the gold lacks or words its sentence lacks): score refuses the "
                "file; the warnings above say why",
            )
        )
    return report
