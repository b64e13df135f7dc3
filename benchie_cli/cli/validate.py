"""``benchie validate`` and ``benchie strip-implicit``: checking gold and submission files,
and removing implicit extractions."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click
import orjson

from benchie_cli.cli.common import (
    gold_options,
    input_format_option,
    load_gold,
    retokenize_option,
    say,
)
from benchie_cli.cli.group import EPILOG_EXIT, set_verdict
from benchie_cli.errors import BenchieError, Diagnostic, ExitCode
from benchie_cli.inputs.batch import check_stdin_once, files_in
from benchie_cli.outputs import check_output
from benchie_cli.textio import (
    EMPTY_NAME,
    STDIN,
    atomic_write,
    display_name,
    spool,
)
from benchie_cli.tokens import language_hint, mostly_implicit

if TYPE_CHECKING:
    from benchie_cli.api import Gold


@click.command(epilog=EPILOG_EXIT, short_help="Check gold or submission files.")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option(
    "--kind",
    type=click.Choice(["auto", "gold", "submission"]),
    default="auto",
    show_default=True,
    help="What the files are; auto looks for 'sent_id:' lines.",
)
@gold_options(facet=False)
@click.option("--case-sensitive", is_flag=True, help="Case-sensitive token tests.")
@click.option(
    "--strict",
    is_flag=True,
    help="Fail (exit 1) on warnings too, and on a gold with errors (for submissions).",
)
@click.option(
    "--max-errors",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="Stop reading a file after this many errors (0: never).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@input_format_option
@retokenize_option
def validate(
    files: tuple[str, ...],
    kind: str,
    lang: str,
    gold_version: str,
    gold_file: str | None,
    gold_dir: str | None,
    case_sensitive: bool,
    strict: bool,
    max_errors: int,
    fmt: str,
    input_format: str,
    retokenize: bool,
) -> None:
    """Check gold or submission FILEs (a directory: every *.tsv in it, as for `score`);
    print every problem as PATH:LINE: severity: message.

    Submissions are checked against the gold (unknown sentence ids, implicit extractions).

    \b
    Examples:
      benchie validate --lang en my_system.tsv
      benchie validate --kind gold --lang de my_gold.txt
    """
    from benchie_cli.errors import Diagnostic
    from benchie_cli.gold.check import FileReport, validate_gold
    from benchie_cli.inputs.mistakes import declared_native_error
    from benchie_cli.inputs.native import (
        REGISTRY,
        alignment_diagnostics,
        prepare,
        skipped_notes,
        unparsed_diagnostics,
    )
    from benchie_cli.validate import detect_kind, validate_submission

    if sum(1 for path in files if path == STDIN) > 1:
        raise BenchieError("standard input ('-') can be read only once per run")
    check_stdin_once(gold_file, files)
    given, files = files, ()
    for path in given:
        if not path:
            raise BenchieError(EMPTY_NAME)
        if path != STDIN and not Path(path).exists():
            raise BenchieError("no such file", path=path)
        if path != STDIN and Path(path).is_dir():  # every *.tsv in it, as score reads it
            files += tuple(str(p) for p in files_in(path, verb="validate"))
        else:
            files += (path,)
    gold: Gold | None = None
    reports = []
    formats: list[str | None] = []  # each file's format: None for gold, else benchie or native
    skipped: list[list[str]] = []  # each file's lines a native reader skipped on purpose
    for path in files:
        if kind == "auto":
            spool(path)  # detecting the kind reads the start: a pipe must not lose it
        file_kind = kind if kind != "auto" else detect_kind(path)
        if file_kind == "gold":
            reports.append(validate_gold(path, lang, case_sensitive=case_sensitive))
            formats.append(None)
            skipped.append([])
            continue
        if gold is None:
            gold = load_gold(gold_dir, gold_version, gold_file, lang)
            if strict and gold.review.new_count:  # the judge itself is in doubt
                raise BenchieError(gold.review.refusal(), exit_code=ExitCode.FAILED)
        texts = {i: s.text for i, s in gold.parsed.sentences.items()}
        try:
            try:
                conversion = prepare(path, input_format, texts.copy, lang)
            except BenchieError as exc:  # (a BenchIE TSV file given a native format)
                raise declared_native_error(exc, path, input_format) from None
        except BenchieError as exc:
            if exc.line is None:
                raise
            # A native line its reader cannot use is a finding, as bad bytes are.
            name = display_name(path)
            finding = Diagnostic(name, exc.line, "error", "unreadable", exc.message)
            reports.append(FileReport(name, "submission", [finding]))
            formats.append(input_format)
            skipped.append([])
            continue
        report = validate_submission(
            path,
            gold.parsed,
            lang,
            case_sensitive=case_sensitive,
            max_errors=max_errors,
            mistakes=gold.mistake_check(retokenize),
            retokenize=retokenize,
        )
        if conversion is not None:
            report.extend(alignment_diagnostics(conversion, report.path))
            report.extend(unparsed_diagnostics(conversion, report.path))
            report.sort(key=lambda d: (d.line is None, d.line or 0))
        reports.append(report)
        formats.append("benchie" if conversion is None else conversion.format)
        skipped.append([] if conversion is None else skipped_notes(conversion, report.path))
    errors = sum(r.errors for r in reports)
    warnings = sum(r.warnings for r in reports)
    if errors or (strict and warnings):
        set_verdict(int(ExitCode.FAILED))
    if fmt == "json":
        doc = {
            "errors": errors,
            "warnings": warnings,
            "files": [
                {
                    "path": r.path,
                    "kind": r.kind,
                    "format": f,
                    "errors": r.errors,
                    "warnings": r.warnings,
                    "truncated": r.truncated,
                    "diagnostics": [d.as_dict() for d in r.diagnostics],
                }
                for r, f in zip(reports, formats, strict=True)
            ],
        }
        click.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
    else:
        for r, f, notes in zip(reports, formats, skipped, strict=True):
            if f in REGISTRY:
                click.echo(f"{r.path}: note: read as {REGISTRY[f].title} ({f})")
            for note in notes:
                click.echo(note)
            for line in _listed(r.diagnostics, r.path, gold=r.kind == "gold"):
                click.echo(line)
            if r.truncated:
                click.echo(f"{r.path}: note: stopped after {max_errors:,} errors (--max-errors)")
            if r.retokenized is not None:
                click.echo(
                    f"{r.path}: note: --retokenize mapped {r.retokenized[0]} slot(s) onto "
                    f"their sentence's tokens, left {r.retokenized[1]} unmapped"
                )
        click.echo(
            f"{errors:,} error(s), {warnings:,} warning(s) in {len(reports):,} file(s)", err=True
        )
    if errors or (strict and warnings):
        sys.exit(int(ExitCode.FAILED))


#: Line findings of one code listed in the text output; the rest are counted (``--format
#: json`` lists every one).
SHOWN_PER_CODE = 20


def _listed(diagnostics: Sequence[Diagnostic], path: str, *, gold: bool = False) -> list[str]:
    """A file's findings as the text output lists them. A gold file's are all listed, in
    order: its author fixes each. A submission's likely mistakes (ids shifted by one,
    another language: what the file as a whole says) come first, once, then each code's
    line findings, the first :data:`SHOWN_PER_CODE` in order, then a count of the others
    for each code, in the order the codes first appear (a system's output with thousands of
    sentences outside the gold would list each). After a mistake that makes every line
    unreadable alike (a curve file, a CSV file, a native output: ``mistakes.WHOLE_FILE``),
    one of each line finding it gives is listed: twenty copies of "3 columns, need 4"
    would bury the cause."""
    from benchie_cli.inputs.mistakes import CODES, WHOLE_FILE

    if gold:
        return [d.format() for d in diagnostics]
    likely = [d for d in diagnostics if d.code in CODES]
    once: set[str] = set()
    for d in likely:
        once.update(WHOLE_FILE.get(d.code, ()))
    lines = [d.format() for d in likely]
    shown: dict[str, int] = {}
    hidden: dict[str, int] = {}
    for d in diagnostics:
        if d.code in CODES:
            continue
        if shown.get(d.code, 0) < (1 if d.code in once else SHOWN_PER_CODE):
            shown[d.code] = shown.get(d.code, 0) + 1
            lines.append(d.format())
        else:
            hidden[d.code] = hidden.get(d.code, 0) + 1
    lines += [
        f"{path}: note: {hidden[code]:,} more [{code}] finding(s) not listed "
        "(--format json lists all)"
        for code in shown
        if code in hidden
    ]
    return lines


@click.command(
    "strip-implicit",
    epilog=EPILOG_EXIT,
    short_help="Remove implicit extractions from a submission.",
)
@click.argument("submission", metavar="SUBMISSION")
@gold_options(facet=False)
@click.option("--case-sensitive", is_flag=True, help="Compare tokens case-sensitively.")
@click.option(
    "-o",
    "--output",
    default=STDIN,
    metavar="KEPT",
    help="Explicit lines, unchanged and in order [default: stdout].",
)
@click.option(
    "--removed",
    default=None,
    metavar="REMOVED",
    help="Implicit lines as LINE<TAB>TOKENS<TAB>original line.",
)
@input_format_option
@retokenize_option
def strip_implicit_cmd(
    submission: str,
    lang: str,
    gold_version: str,
    gold_file: str | None,
    gold_dir: str | None,
    case_sensitive: bool,
    output: str,
    removed: str | None,
    input_format: str,
    retokenize: bool,
) -> None:
    """Remove implicit extractions (tokens absent from the sentence) from SUBMISSION.

    \b
    Example:
      benchie strip-implicit --lang en out.tsv -o explicit.tsv --removed implicit.tsv
    """
    from benchie_cli.benchmarks.benchie.run import prepare_native
    from benchie_cli.inputs.implicit import strip_implicit

    check_stdin_once(gold_file, [submission])
    gold = load_gold(gold_dir, gold_version, gold_file, lang)
    check_output(output, [submission, *gold.resolved.inputs], [removed], stores=[gold.store_root])
    check_output(removed, [submission, *gold.resolved.inputs], [output], stores=[gold.store_root])
    texts = {i: s.text for i, s in gold.parsed.sentences.items()}
    native = prepare_native(submission, input_format, texts.copy, lang, say=say)
    spool(submission)  # (read again below, to explain a line it cannot read)
    try:
        result = strip_implicit(
            submission, gold.parsed, lang, case_sensitive=case_sensitive, retokenize=retokenize
        )
    except BenchieError as exc:
        if exc.line is None:
            raise
        from benchie_cli.inputs.mistakes import MistakeCheck, explained, read_head

        raise explained(exc, MistakeCheck(lang, texts).format(read_head(submission))) from None
    if result.retokenized is not None:
        click.echo(
            f"benchie: --retokenize mapped {result.retokenized[0]} slot(s) onto their "
            f"sentence's tokens, left {result.retokenized[1]} unmapped",
            err=True,
        )
    if native:  # a native file's kept lines are BenchIE TSV: no padding lines
        result.kept = b"".join(line for line in result.kept.splitlines(True) if line.strip())
    atomic_write(output, result.kept)
    if removed is not None:
        atomic_write(removed, result.removed)
    if mostly_implicit(result.removed_count, result.kept_count + result.removed_count):
        hint = language_hint(result.removed_count, result.kept_count + result.removed_count, lang)
        click.echo(f"benchie: {submission}: {hint}", err=True)
    click.echo(
        f"benchie: kept {result.kept_count}, removed {result.removed_count} implicit"
        + (
            f", {result.unknown_ids} with unknown sentence ids kept untested"
            if result.unknown_ids
            else ""
        ),
        err=True,
    )
