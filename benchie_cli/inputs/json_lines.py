"""JSON lines: one object a line, as every reader of them takes them (``jsonl``, the LLM
answers of ``llm-text``): blank lines skipped, anything but an object an error at its line."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import orjson

from benchie_cli.errors import BenchieError


def objects(lines: Iterable[tuple[int, str]], name: str) -> Iterator[tuple[int, dict[str, object]]]:
    """``(line number, object)`` for every non-blank line of ``lines``."""
    for n, text in lines:
        if not text.strip():
            continue
        try:
            doc = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            raise BenchieError(f"not a JSON object: {exc}", path=name, line=n) from None
        if not isinstance(doc, dict):
            raise BenchieError("not a JSON object", path=name, line=n)
        yield n, doc
