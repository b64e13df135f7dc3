"""An LLM's raw answers read into triples by fixed, versioned rules: ``llm-text@1``
(docs/llm-text.md).

Papers that evaluate LLMs parse the model's text with their own regular expressions, so two
papers' numbers for one model are not comparable. These rules are one parser, named with its
version in every signature that scores a file read by it, so that a paper can say "parsed by
benchie's llm-text@1" and mean the same thing as the next one. A change to a rule is a new
version; version 1 never changes.

A file holds, per sentence, the sentence and the model's answer, in one of two layouts:

- JSON lines: ``{"sentence": TEXT, "output": ANSWER}`` (or ``"sent_id"``/``"id"`` instead of
  the sentence's text; ``"answer"``, ``"response"``, ``"completion"``, ``"generation"`` or
  ``"prediction"`` instead of ``"output"``; an answer is a string or a list of strings);
- text: blocks separated by blank lines, the first line of a block the sentence (a leading
  ``Sentence:`` or ``Input:`` is dropped), the lines after it the answer; a block whose first
  line reads as a triple goes on the answer before it (a blank line inside an answer), and
  a block of one line, no answer after it, is a finding.

An answer is read fragment by fragment: a line (without a list marker such as ``1.``,
``2)``, ``-``, ``*``), or each bracketed group of a line that holds several. A fragment is a
triple when it has exactly three non-empty slots: ``(s; r; o)``, ``(s, r, o)``, ``<s, r,
o>``, ``("s", "r", "o")``, ``["s", "r", "o"]``, ``s | r | o`` or ``s ; r ; o``; quotes
around a slot are dropped. A JSON list of such lists gives one triple each. A fragment
with more separators than slots (``(a, b, c, d)``: a comma in a slot, or an n-ary answer) is
ambiguous and is reported, never guessed; prose, a refusal, a bracket left open or a
fragment of two slots is reported too. An answer that says there is nothing (``None``,
``N/A``, ``[]``, ``No triples``) gives no triple and is not a finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import orjson

from benchie_cli.errors import BenchieError
from benchie_cli.inputs.formats import VERSIONS, signed
from benchie_cli.inputs.json_lines import objects, repeated_key
from benchie_cli.records import Record

#: The rules' version: part of the name every signature gives them (``llm-text@1``).
VERSION = VERSIONS["llm-text"]
NAME = signed("llm-text")

#: Keys of a JSON line naming its sentence by text, or by id.
TEXT_KEYS = ("sentence", "text")
ID_KEYS = ("sent_id", "id")
#: Keys holding the model's answer.
ANSWER_KEYS = ("output", "answer", "response", "completion", "generation", "prediction")
#: A label some prompts put before the sentence of a text block.
_SENTENCE_LABEL = re.compile(r"^(?:sentence|input)\s*:\s*", re.IGNORECASE)

#: A list marker before a fragment: ``1.``, ``1)``, ``(1) ``, ``a)``, ``iv.``, ``-``, ``*``,
#: ``•``, ``Triple 1:`` (a number's marker may touch a bracket: ``1.(a; b; c)``).
_MARKER = re.compile(
    r"^\s*(?:\d+\s*[.)](?:\s+|(?=[(<\[]))|\(\d+\)\s+|(?:[a-h]|[ivx]{1,4})[.)]\s+|[-*•]\s+"
    r"|(?:triple|extraction)\s*\d*\s*:\s*)",
    re.IGNORECASE,
)
#: Markdown emphasis or code marks around a whole fragment (``**(a; b; c)**``).
_EMPHASIS = re.compile(r"^(\*\*|__|`+|\*)(.*)\1$")
#: A label before a bracketed triple (``Answer: (a; b; c)``), dropped.
_LABEL = re.compile(r"^[A-Za-z][\w ]{0,20}:\s*(?=[(<\[{])")
#: A slot's own label (``Subject: He``), dropped: the slots keep their order.
_SLOT_LABEL = re.compile(
    r"^(?:subject|subj|sub|head|arg1|arg 1|relation|rel|predicate|pred|object|obj|tail|arg2"
    r"|arg 2)\s*[:=]\s*",
    re.IGNORECASE,
)
#: The keys of a triple written as a JSON object, by slot (as the ``json`` format reads).
_OBJECT_KEYS = (
    ("subject", "head", "sub", "subj", "arg1", "s"),
    ("relation", "rel", "predicate", "pred", "p", "r"),
    ("object", "tail", "obj", "arg2", "o"),
)
#: An answer that says there is nothing to extract.
_NOTHING = re.compile(
    r"^(?:none|n/?a|nothing|\[\]|no (?:triples?|extractions?|relations?|facts?)"
    r"(?: (?:found|extracted))?)\.?$",
    re.IGNORECASE,
)
_BRACKETS = {"(": ")", "<": ">", "[": "]", "{": "}"}
#: Bracketed groups of a line (``(a; b; c), (d; e; f)``), not nested.
_GROUP = re.compile(r"\(([^()]*)\)|<([^<>]*)>")
_QUOTED = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|“([^”]*)”")
_QUOTES = "\"'`\u201c\u201d\u2018\u2019"  # straight, back and curly quotes


class Triple(Record):
    """One triple of an answer, at the file's line where its fragment is."""

    line: int
    subject: str
    relation: str
    object: str


class Unparsed(Record):
    """A fragment no rule reads as a triple, and why."""

    line: int
    fragment: str
    reason: str


class Answer(Record):
    """One sentence and what its answer gave: the sentence's text or id (one of them),
    where it is, its triples and its unparsed fragments."""

    sentence: str | None
    sent_id: str | None
    line: int
    triples: tuple[Triple, ...]
    unparsed: tuple[Unparsed, ...]


def _slots(parts: list[str]) -> list[str]:
    return [_SLOT_LABEL.sub("", p.strip().strip(_QUOTES).strip(), count=1) for p in parts]


def _balanced(text: str) -> bool:
    """Whether every bracket of ``text`` is closed, in order: a slot that is not holds
    a fragment's decoration, not a word (``**(He``)."""
    depth = {")": 0, ">": 0, "]": 0, "}": 0}
    pairs = {"(": ")", "<": ">", "[": "]", "{": "}"}
    for c in text:
        if c in pairs:
            depth[pairs[c]] += 1
        elif c in depth:
            depth[c] -= 1
            if depth[c] < 0:
                return False
    return not any(depth.values())


def _as_triple(slots: list[str], line: int, fragment: str) -> Triple | Unparsed:
    if not all(_balanced(slot) for slot in slots):
        return Unparsed(line, fragment, "a bracket open or closed across slots: markup?")
    if len(slots) > 3:
        return Unparsed(line, fragment, f"ambiguous: {len(slots)} slots, a triple has 3")
    if len(slots) < 3:
        return Unparsed(line, fragment, f"{len(slots)} slot(s), a triple has 3")
    if not all(slots):
        return Unparsed(line, fragment, "an empty slot")
    return Triple(line, slots[0], slots[1], slots[2])


def _quoted(inner: str) -> list[str] | None:
    """The slots of ``"a", "b", "c"`` (quotes of either kind, commas between), or None when
    ``inner`` is not only quoted items."""
    items = [m.group(0) for m in _QUOTED.finditer(inner)]
    if not items:
        return None
    rest = _QUOTED.sub("", inner)
    if rest.replace(",", "").strip():
        return None
    return [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(inner)]


def _split(inner: str) -> list[str]:
    """A fragment's slots by its separator: quoted items, else ``;``, ``|``, ``,``."""
    quoted = _quoted(inner)
    if quoted is not None:
        return [q.strip() for q in quoted]
    for sep in (";", "|", ","):
        if sep in inner:
            return _slots(inner.split(sep))
    return [inner.strip()]


def _json_fragment(text: str, line: int) -> list[Triple | Unparsed] | None:
    """A JSON list: one triple, or a list of triples; None when ``text`` is not JSON."""
    try:
        doc = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(doc, list):
        return None
    if not doc:
        return []
    rows = doc if all(isinstance(d, list) for d in doc) else [doc]
    out: list[Triple | Unparsed] = []
    for row in rows:
        if not all(isinstance(s, str) for s in row):
            out.append(Unparsed(line, text, "a list of other than strings"))
            continue
        out.append(_as_triple(_slots(row), line, orjson.dumps(row).decode()))
    return out


def parse_fragment(text: str, line: int) -> list[Triple | Unparsed]:
    """What one line of an answer gives: triples, findings, or nothing (blank, nothing
    extracted)."""
    stripped = _MARKER.sub("", text.strip(), count=1).strip()
    emphasis = _EMPHASIS.match(stripped)
    if emphasis:
        stripped = emphasis.group(2).strip()
    stripped = _LABEL.sub("", stripped, count=1)
    if not stripped or _NOTHING.match(stripped.rstrip(".")):
        return []
    if stripped.startswith("["):
        found = _json_fragment(stripped, line)
        if found is not None:
            return found
    if stripped.startswith("{"):
        return [_json_object(stripped.rstrip(","), line)]
    groups = [next(g for g in m.groups() if g is not None) for m in _GROUP.finditer(stripped)]
    outside = _GROUP.sub("", stripped).strip(" ,;.")
    if groups and not outside:  # one or more bracketed fragments, nothing else
        return [_as_triple(_split(g), line, f"({g})") for g in groups]
    opener = stripped[0]
    if opener in _BRACKETS:
        if stripped.endswith((_BRACKETS[opener] + ",", _BRACKETS[opener] + ";")):
            stripped = stripped[:-1]  # a list's item: ``["a", "b", "c"],``
            if opener == "[":
                found = _json_fragment(stripped, line)
                if found is not None:
                    return found
        if stripped.endswith(_BRACKETS[opener]):
            return [_as_triple(_split(stripped[1:-1]), line, stripped)]
        if not groups:
            return [Unparsed(line, stripped, f"a {opener!r} without its {_BRACKETS[opener]!r}")]
    if groups:
        return [Unparsed(line, stripped, f"text outside the brackets: {outside[:40]!r}")]
    if "|" in stripped or _quoted(stripped) is not None:
        return [_as_triple(_split(stripped), line, stripped)]
    parts = stripped.split(";")
    if len(parts) > 1 and all(_SLOT_LABEL.match(part.strip()) for part in parts):
        return [_as_triple(_slots(parts), line, stripped)]  # Subject: a; Relation: b; ...
    return [Unparsed(line, stripped, "no triple: prose, or no separator")]


def _json_object(text: str, line: int) -> Triple | Unparsed:
    """A triple written as a JSON object, under the usual keys."""
    try:
        doc = orjson.loads(text)
    except orjson.JSONDecodeError:
        return Unparsed(line, text, "a '{' that is no JSON object")
    if not isinstance(doc, dict):
        return Unparsed(line, text, "a '{' that is no JSON object")
    key = repeated_key(text, doc)
    if key is not None:  # (which value was meant is anyone's guess: none is taken)
        return Unparsed(line, text, f"a JSON object giving the key {key[:40]!r} twice")
    slots = []
    for names in _OBJECT_KEYS:
        value = next((doc[k] for k in names if k in doc), None)
        if not isinstance(value, str):
            return Unparsed(line, text, f"a JSON object without a string {names[0]!r}")
        slots.append(value)
    return _as_triple(_slots(slots), line, text)


def parse_answer(answer: Iterable[tuple[int, str]]) -> tuple[list[Triple], list[Unparsed]]:
    """The triples and findings of an answer's lines (``(line number, text)``)."""
    triples: list[Triple] = []
    unparsed: list[Unparsed] = []
    for line, text in answer:
        for item in parse_fragment(text, line):
            if isinstance(item, Triple):
                triples.append(item)
            else:
                unparsed.append(item)
    return triples, unparsed


def _answer_of(doc: dict[str, object], name: str, line: int) -> Answer:
    sentence = next((doc[k] for k in TEXT_KEYS if k in doc), None)
    sent_id = next((doc[k] for k in ID_KEYS if k in doc), None)
    if isinstance(sent_id, int) and not isinstance(sent_id, bool):
        sent_id = str(sent_id)
    if sentence is None and sent_id is None:
        raise BenchieError(
            f"no sentence: give one of {', '.join(map(repr, (*TEXT_KEYS, *ID_KEYS)))} "
            f"(found {', '.join(map(repr, doc)) or 'no key'})",
            path=name,
            line=line,
        )
    if not isinstance(sentence, str | None) or not isinstance(sent_id, str | None):
        raise BenchieError("the sentence (or its id) must be a string", path=name, line=line)
    key = next((k for k in ANSWER_KEYS if k in doc), None)
    if key is None:
        raise BenchieError(
            f"no answer: give one of {', '.join(map(repr, ANSWER_KEYS))} "
            f"(found {', '.join(map(repr, doc))})",
            path=name,
            line=line,
        )
    raw = doc[key]
    if isinstance(raw, str):
        texts = raw.splitlines()
    elif isinstance(raw, list) and all(isinstance(r, str) for r in raw):
        texts = [t for r in raw for t in r.splitlines()]
    elif raw is None:
        texts = []
    else:
        raise BenchieError(f'"{key}" must be a string or a list of strings', path=name, line=line)
    triples, unparsed = parse_answer((line, t) for t in texts)
    return Answer(sentence, sent_id, line, tuple(triples), tuple(unparsed))


def _is_json_line(text: str) -> bool:
    return text.lstrip().startswith("{")


def read(lines: Iterable[tuple[int, str]], name: str) -> Iterator[Answer]:
    """Every sentence's answer of a file's lines (``(line number, text)``), in order: JSON
    lines when the first non-blank line is an object, else text blocks."""
    items = iter(lines)
    first: tuple[int, str] | None = None
    for n, text in items:
        if text.strip():
            first = (n, text)
            break
    if first is None:
        return
    if _is_json_line(first[1]):
        for n, doc in objects(_chain(first, items), name):
            yield _answer_of(doc, name, n)
        return
    blocks: list[list[tuple[int, str]]] = [[]]
    for n, text in _chain(first, items):
        if text.strip():
            blocks[-1].append((n, text))
        elif blocks[-1]:
            blocks.append([])
    merged: list[list[tuple[int, str]]] = []
    for block in blocks:
        if not block:
            continue
        # A blank line inside an answer: a block whose first line reads as a triple is the
        # answer going on, not a sentence.
        if merged and any(isinstance(x, Triple) for x in parse_fragment(block[0][1], 0)):
            merged[-1].extend(block)
        else:
            merged.append(block)
    for block in merged:
        yield _block(block)


def _chain(first: tuple[int, str], rest: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    yield first
    yield from rest


def _block(block: list[tuple[int, str]]) -> Answer:
    line, sentence = block[0]
    sentence = _SENTENCE_LABEL.sub("", sentence.strip(), count=1)
    triples, unparsed = parse_answer(block[1:])
    if len(block) == 1:  # a sentence and no answer: a line out of place, said, not dropped
        unparsed.append(Unparsed(line, sentence, "a block of one line, no answer after it"))
    return Answer(sentence, None, line, tuple(triples), tuple(unparsed))


def detect(lines: list[str]) -> bool:
    """Whether the first lines are JSON lines of a sentence and a model's answer (the text
    layout has no mark of its own: it is read when ``--input-format llm-text`` says so)."""
    docs = []
    for text in lines:
        if not _is_json_line(text):
            return False
        try:
            doc = orjson.loads(text)
        except orjson.JSONDecodeError:
            return False
        if not isinstance(doc, dict):
            return False
        docs.append(doc)
    return bool(docs) and all(
        any(k in d for k in ANSWER_KEYS) and any(k in d for k in (*TEXT_KEYS, *ID_KEYS))
        for d in docs
    )
