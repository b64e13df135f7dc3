"""Score reports: one JSON document (and its table and markdown views) per ``score`` run.

The JSON is the record a paper or a leaderboard cites, so it is deterministic: keys in a
fixed order, systems in the order given, sentences in gold order, no timestamps, no paths
that depend on the machine (gold files are named relative to the store). The ``signature``
pins every setting that can change a number, in the spirit of sacreBLEU's. Each benchmark's
package builds its reports and renders them (``to_table``, ``to_markdown``); this module
writes any of them as bytes and asks the package a report names for its views.
"""

from __future__ import annotations

from typing import Any

import orjson

from benchie_cli.errors import BenchieError
from benchie_cli.registry import BENCHMARKS, DEFAULT_BENCHMARK, implementation
from benchie_cli.textio import display_name, read_whole, without_bom


def to_json(report: dict[str, Any]) -> bytes:
    return orjson.dumps(report, option=orjson.OPT_INDENT_2) + b"\n"


def _views(report: dict[str, Any]) -> Any:
    """The package of the benchmark the report names (BenchIE's reports name none)."""
    benchmark = report.get("benchmark")
    known = isinstance(benchmark, str) and benchmark in BENCHMARKS
    return implementation(benchmark if isinstance(benchmark, str) and known else DEFAULT_BENCHMARK)


def to_table(report: dict[str, Any]) -> str:
    """The leaderboard as a fixed-width table for the terminal, failures and signature
    below it."""
    table: str = _views(report).to_table(report)
    return table


def to_markdown(report: dict[str, Any]) -> str:
    """The leaderboard as a GitHub-flavoured markdown table, failures and signature below,
    ready for a README or a paper."""
    markdown: str = _views(report).to_markdown(report)
    return markdown


def load_json(path: str, command: str = "verify") -> tuple[Any, bytes]:
    """A JSON report's document and its bytes, read once (bounded, no device); not JSON:
    refused (exit 2), bytes that are not text in plain words naming ``command`` (the one
    reading it). Its shape is the caller's to check (``verify``, ``plot``)."""
    data = read_whole(path, what="report")
    text = without_bom(data)
    try:
        text.decode("utf-8")
    except UnicodeDecodeError as exc:  # (the decoder's own words name its internals)
        raise BenchieError(_not_text(text, exc, command), path=display_name(path)) from None
    try:
        return orjson.loads(text), data
    except orjson.JSONDecodeError as exc:
        raise BenchieError(f"not a JSON report ({exc})", path=display_name(path)) from None


#: The magic numbers of the binary files most often given for a report by mistake.
_BINARY_KINDS = ((b"PK\x03\x04", "a zip archive"), (b"\x1f\x8b", "a gzip file"), (b"%PDF", "a PDF"))


def _not_text(data: bytes, exc: UnicodeDecodeError, command: str) -> str:
    """Why bytes that are not UTF-8 are no report, in the user's terms: orjson says "str is
    not valid UTF-8: surrogates not allowed", which names its own internals."""
    kind = next((name for magic, name in _BINARY_KINDS if data.startswith(magic)), None)
    what = kind or "a binary file?"
    return (
        f"not UTF-8 text ({what}): {command} reads a JSON report written by benchie score "
        f"(byte 0x{data[exc.start]:02x} at offset {exc.start})"
    )
