"""JSON lines: one object a line, as every reader of them takes them (``jsonl``, the LLM
answers of ``llm-text``): blank lines skipped, anything but an object an error at its line."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import orjson

from benchie_cli.errors import BenchieError

#: The end of an object's key (its closing quote, then the colon), and of anything that
#: looks like one (a string value holding ``":``): every key ends in one match.
_KEY_END = re.compile(r'"[ \t\r\n]*:')


class RepeatedKey(Exception):
    """A JSON object gives one key twice (:func:`repeated_key`), raised from within the
    standard library's decoder by :func:`unique_pairs`."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def unique_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """An ``object_pairs_hook`` that refuses a key given twice in one object
    (:class:`RepeatedKey`) instead of keeping its last value."""
    doc = dict(pairs)
    if len(doc) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKey(key)
            seen.add(key)
    return doc


def _keys(doc: object) -> int:
    """How many keys the objects of a parsed document hold, nested ones included."""
    count = 0
    stack = [doc]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            count += len(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def repeated_key(text: str, doc: object) -> str | None:
    """A key that ``text``, the JSON ``doc`` was parsed from, gives twice in one object, or
    None. Every JSON reader, orjson too, keeps only the last value of such a key: the others
    (a second ``"triples"`` list, a second ``"object"``) would be dropped without a word.
    Counted before anything is parsed again: each key of ``text`` ends in a match of
    :data:`_KEY_END`, so as many matches as ``doc`` holds keys means that no key repeats;
    only otherwise (a repeat, or a string value holding ``":``) is ``text`` decoded again,
    with :func:`unique_pairs`."""
    if len(_KEY_END.findall(text)) == _keys(doc):
        return None
    import json

    try:
        json.loads(text, object_pairs_hook=unique_pairs)
    except RepeatedKey as exc:
        return exc.key
    except RecursionError:  # (deeper than the decoder's recursion goes; orjson's 1,024 not)
        return _repeated_key_scanned(text)
    return None


#: What :func:`_repeated_key_scanned` stops at: a string's start, an object's or array's
#: start or end, a comma.
_STRUCTURE = re.compile(r'["{}\[\],]')
#: A string's end: its closing quote, after any escaped characters.
_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)


def _repeated_key_scanned(text: str) -> str | None:
    """:func:`repeated_key` of a valid JSON ``text`` without recursion, for one nested
    deeper than the standard library's decoder goes: the keys of each open object, met in
    one pass (a key is a string where an object expects one: after ``{`` or its commas),
    each decoded alone, so that ``"a"`` and ``"\\u0061"`` are one key."""
    import json

    keys: list[set[str] | None] = []  # each open object's keys; None for an open array
    expect_key = False
    pos = 0
    while (m := _STRUCTURE.search(text, pos)) is not None:
        char, pos = m.group(), m.end()
        if char == '"':
            end = _STRING_REST.match(text, pos)
            if end is None:  # (not valid JSON: orjson has refused it before)
                return None
            if expect_key:
                key = json.loads(text[pos - 1 : end.end()])
                seen = keys[-1]
                assert seen is not None
                if key in seen:
                    return str(key)
                seen.add(key)
                expect_key = False
            pos = end.end()
        elif char == "{":
            keys.append(set())
            expect_key = True
        elif char == "[":
            keys.append(None)
            expect_key = False
        elif char in "}]":
            keys.pop()
            expect_key = False
        else:  # a comma: a key next, inside an object
            expect_key = bool(keys) and keys[-1] is not None
    return None


def repeated_key_error(key: str, name: str, line: int) -> BenchieError:
    """The error of an object that gives ``key`` twice (:func:`repeated_key`)."""
    return BenchieError(
        f"the key {key[:80]!r} is given twice in one object: a JSON reader keeps only the "
        "last value, and the first would be dropped without a word; give it once",
        path=name,
        line=line,
    )


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
        key = repeated_key(text, doc)
        if key is not None:
            raise repeated_key_error(key, name, n)
        yield n, doc
