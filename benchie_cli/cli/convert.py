"""``benchie sentences`` and ``benchie convert``: a benchmark's input sentences, and native
system outputs to BenchIE TSV."""

from __future__ import annotations

import click
import orjson

from benchie_cli.cli.common import (
    gold_options,
    load_gold,
    say,
    say_once,
    say_written,
)
from benchie_cli.cli.group import EPILOG_EXIT
from benchie_cli.errors import BenchieError
from benchie_cli.inputs.batch import check_stdin_once
from benchie_cli.inputs.formats import BENCHIE_TSV, NATIVE_FORMATS
from benchie_cli.outputs import check_output
from benchie_cli.registry import BENCHMARKS, DEFAULT_BENCHMARK, SPLITS
from benchie_cli.textio import (
    STDIN,
    atomic_write,
    display_name,
    spool,
)


@click.command(epilog=EPILOG_EXIT, short_help="Print a benchmark's input sentences.")
@gold_options(facet=False, every_benchmark=True)
@click.option(
    "--benchmark",
    type=click.Choice(tuple(BENCHMARKS)),
    default=DEFAULT_BENCHMARK,
    show_default=True,
    help="Whose sentences; --gold-version then defaults to the benchmark's latest version.",
)
@click.option(
    "--split",
    type=click.Choice(SPLITS),
    default=None,
    help="The benchmark's split [default: its first].",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["txt", "tsv", "jsonl"]),
    default="txt",
    show_default=True,
    help="txt: one sentence a line; tsv: sent_id<TAB>sentence; jsonl: "
    '{"sent_id": ..., "sentence": ...} a line.',
)
@click.option(
    "-o",
    "--output",
    default=STDIN,
    metavar="FILE",
    help="Write here, atomically [default: stdout].",
)
def sentences(
    lang: str,
    gold_version: str,
    gold_file: str | None,
    gold_dir: str | None,
    benchmark: str,
    split: str | None,
    fmt: str,
    output: str,
) -> None:
    """Print a benchmark's input sentences, exactly as its gold has them, in gold order:
    the text to run a system on, so that it is run on exactly the sentences that will be
    scored. The id is the one a BenchIE TSV line names the sentence by (CaRB: its line
    number in the split's sentences file; OIE2016 and Re-OIE2016: its position in the gold).

    \b
    Examples:
      benchie sentences --lang en -o sentences.txt
      benchie sentences --lang de --format jsonl
      benchie sentences --benchmark carb --split test --format jsonl
    """
    from benchie_cli.benchmarks import runner

    ctx = click.get_current_context()
    given = ctx.get_parameter_source("gold_version") == click.core.ParameterSource.COMMANDLINE
    request = runner.Request(
        (),
        benchmark,
        gold_dir=gold_dir,
        gold_version=gold_version if given else None,
        gold_file=gold_file,
        lang=lang,
        split=split,
    )
    runner.check(request)
    found = runner.runner(benchmark).sentences(request, runner.Hooks(say=say, notice=say_once))
    check_output(output, found.inputs, stores=[found.store])
    if fmt == "txt":
        data = "".join(f"{text}\n" for _, text in found.items).encode()
    elif fmt == "tsv":
        data = "".join(f"{sid}\t{text}\n" for sid, text in found.items).encode()
    else:
        data = b"".join(
            orjson.dumps({"sent_id": sid, "sentence": text}) + b"\n" for sid, text in found.items
        )
    atomic_write(output, data)
    say_written(output, fmt, f"{len(found.items):,} sentence(s)")


@click.command(epilog=EPILOG_EXIT, short_help="Convert a system's native output to BenchIE TSV.")
@click.argument("source", metavar="INPUT")
@click.option(
    "--from",
    "from_",
    type=click.Choice(["auto", *NATIVE_FORMATS]),
    default="auto",
    show_default=True,
    help="The system's output format (docs/native-formats.md); auto detects it.",
)
@gold_options(facet=False)
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="OUT.tsv",
    help="The BenchIE TSV to write ('-': stdout).",
)
@click.option(
    "--no-confidence",
    is_flag=True,
    help="Leave out the confidence column and its '#benchie-tsv confidence' directive.",
)
@click.option(
    "--report",
    "report_file",
    default=None,
    metavar="FILE",
    help="Write the alignment as JSON: every unaligned and ambiguous input sentence with its "
    "line, the lines skipped on purpose (a header row), and the gold sentences without "
    "extraction.",
)
def convert(
    source: str,
    from_: str,
    lang: str,
    gold_version: str,
    gold_file: str | None,
    gold_dir: str | None,
    output: str,
    no_confidence: bool,
    report_file: str | None,
) -> None:
    """Convert a system's native output INPUT into a BenchIE TSV submission, its sentences
    aligned to the gold's ids by text; alignment statistics go to stderr.

    \b
    Examples:
      benchie convert --from openie4 --lang en openie4_output.txt -o openie4.tsv
      benchie convert --lang en llm.jsonl -o llm.tsv --report alignment.json
    """
    import io

    from benchie_cli.inputs.native import convert as convert_native
    from benchie_cli.inputs.native import detect, summary

    check_stdin_once(gold_file, [source])
    gold = load_gold(gold_dir, gold_version, gold_file, lang)
    check_output(output, [source, *gold.resolved.inputs], [report_file], stores=[gold.store_root])
    check_output(report_file, [source, *gold.resolved.inputs], [output], stores=[gold.store_root])
    if from_ == "auto":
        spool(source)
        from_ = detect(source)
        if from_ == BENCHIE_TSV:
            from benchie_cli.inputs.mistakes import detect_curve, read_head
            from benchie_cli.textio import refuse_other_encoding

            head = read_head(source)
            refuse_other_encoding(head[0] if head else b"", display_name(source))
            if not any(line.strip() for line in head):
                _refuse_empty(source)
            curve = detect_curve(head)
            raise BenchieError(
                f"{curve.message} [{curve.code}]"
                if curve is not None
                else "no native format recognised (BenchIE TSV needs no conversion); name it "
                "with --from",
                path=display_name(source),
                line=None if curve is None else curve.line,
            )
    texts = {i: s.text for i, s in gold.parsed.sentences.items()}
    buffer = io.BytesIO()
    result = convert_native(
        source, from_, texts, buffer, confidence=not no_confidence, pad=False, lang=lang
    )
    atomic_write(output, buffer.getvalue())
    for line in summary(result, display_name(source)):
        say(line)
    # (named as every command that writes names its output: a run never ends in silence)
    say_written(
        output,
        "benchie tsv",
        f"{result.written:,} extraction(s) from {display_name(source)}, read as {result.format}",
    )
    if report_file is not None:
        a = result.alignment
        doc = {
            "file": display_name(source),
            "sha256": result.sha256,
            "format": result.format,
            "extractions": result.extractions,
            "written": result.written,
            "confidence": result.confidence,
            "aligned_sentences": a.aligned_sentences,
            "dropped_extractions": a.dropped_extractions,
            "skipped": [
                {"line": s.line, "text": s.text, "reason": s.reason} for s in result.skipped
            ],
            "unaligned": [{"line": s.line, "sentence": s.text} for s in a.unaligned],
            "ambiguous": [
                {"line": s.line, "sentence": s.text, "gold_ids": list(s.candidates)}
                for s in a.ambiguous
            ],
            "gold_without_extraction": a.gold_without_extraction,
        }
        atomic_write(report_file, orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")
        say_written(report_file, "json", "alignment report")


def _refuse_empty(source: str) -> None:
    """Refuse a file whose sample holds no line with content. The sample stops silently at a
    line the reader cannot read (one over ``textio.MAX_LINE_BYTES``: a file without line
    breaks), so the file is read again up to its first line with content, letting the
    reader's own error name that line as ``score`` does, rather than calling the file
    empty."""
    from benchie_cli.textio import iter_lines

    for _, content, _ in iter_lines(source):
        if content.strip():
            return  # content after the sample's blank lines: not empty
    raise BenchieError("an empty file: nothing to convert", path=display_name(source))
