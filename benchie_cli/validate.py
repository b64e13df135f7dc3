"""``benchie validate``: every problem of a gold or submission file, one per line.

Gold checks are the loader's own (malformed headers, stray lines, brackets, whitespace,
duplicate ids, empty synsets) plus those of :mod:`benchie_cli.gold.check`, which look across
lines. Submission checks are the reader's (columns, bytes) plus those that need the gold:
unknown sentence ids and implicit extractions, and duplicate lines.
"""

from __future__ import annotations

from benchie_cli.errors import BenchieError, Diagnostic
from benchie_cli.gold.check import FileReport
from benchie_cli.gold.parse import Gold
from benchie_cli.inputs.findings import EXPLAIN_IMPLICIT
from benchie_cli.inputs.implicit import implicit_test
from benchie_cli.inputs.mistakes import MistakeCheck, Retokenizer, nothing_scorable, read_head
from benchie_cli.inputs.submission import FileFacts, read_submission
from benchie_cli.textio import display_name, iter_lines, spool
from benchie_cli.tokens import language_hint, mostly_implicit


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
                report.add(item)
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
                        report.add(
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
                    report.add(
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
                        report.add(
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
                            report.add(
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
        report.add(
            Diagnostic(
                report.path, exc.line, "error", "unreadable", f"{exc.message}; not read further"
            )
        )
    implicit = sum(1 for d in report.diagnostics if d.code == "implicit")
    findings = [] if mistakes is None else mistakes.check(read_head(path))
    if retokenizer is not None:
        report.retokenized = (retokenizer.mapped, retokenizer.left)
    report.extend(Diagnostic(report.path, f.line, "warning", f.code, f.message) for f in findings)
    if mostly_implicit(implicit, facts.extractions) and not any(
        f.code in EXPLAIN_IMPLICIT for f in findings
    ):
        report.add(
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
        report.add(
            Diagnostic(
                report.path,
                None,
                "error",
                "nothing-scorable",
                f"none of its {n:,} extraction{'s' if n != 1 else ''} can be scored (each has a "
                "sentence id the gold lacks or words its sentence lacks): score refuses the "
                "file; the warnings above say why",
            )
        )
    return report
