"""OIE2016's inputs read the way oie-benchmark's readers read them (docs/oie2016.md).

OIE2016 (Stanovsky & Dagan, EMNLP 2016; github.com/gabrielStanovsky/oie-benchmark, MIT)
scores what its readers (``oie_readers/*.py``) make of a file. Its published curves were
made under Python 2, which reads a file as bytes: lines end at ``\\n`` only, and
``strip()`` removes ASCII whitespace only. These readers do the same on UTF-8 text (bytes
that are not UTF-8 survive as surrogate escapes), so a ``\\r``, a form feed inside a line or
a no-break space at its end stays where Python 2 left it.

Two readers rescale confidences, as the originals do: ClausIE's and PropS's confidences
become ``((c - min) + 0.001) / ((max - min) + 0.002)`` over every extraction of the file,
including those of sentences that are not in the gold.

Each reader returns ``{sentence text: [Extraction, ...]}`` in order of first appearance,
keyed by the text exactly as the file has it (a text met again adds to its list);
:func:`benchie_cli.benchmarks.oie2016.metric.group` then merges texts the way the scorer compares
them. Where the original would crash (a missing column, an unparseable confidence, a
ClausIE extraction before any sentence, an empty ClausIE or PropS file) the reader raises a
:class:`~benchie_cli.errors.BenchieError` naming the file and line. A confidence that is not
finite is refused too: scikit-learn refuses it in the original whenever it is scored. The
scorer of before July 2019 (docs/oie2016-2018.md) takes one and scores it as 0; its readers
are these ones called with ``finite=False``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence

from benchie_cli.benchmarks.carb.data import Extraction, Extractions

__all__ = [
    "READERS",
    "Extraction",
    "Extractions",
    "read_clausie",
    "read_file",
    "read_gold",
    "read_lines",
    "read_ollie",
    "read_openie4",
    "read_props",
    "read_reverb",
    "read_sentences",
    "read_stanford",
    "read_system",
    "read_tabbed",
    "reverb_mismatches",
]

#: What Python 2's ``str.strip()`` removes from a byte string: ASCII whitespace only.
WHITESPACE = " \t\n\r\x0b\x0c"
#: oie-benchmark's ``EPSILON`` of the ClausIE and PropS confidence rescaling.
_EPSILON = 1e-3

Reader = Callable[[Iterable[str], str], Extractions]


def read_lines(path: str) -> Iterator[str]:
    """The lines of ``path`` as Python 2's ``for line in open(path)`` yields them: split at
    ``\\n`` only, each with its ``\\n``. UTF-8, undecodable bytes as surrogate escapes;
    gzip-compressed if the name ends in ``.gz``."""
    if path.endswith(".gz"):
        import gzip  # only for compressed files: start-up time counts in a scorer

        with gzip.open(path, "rb") as fh:
            data = fh.read()
    else:
        with open(path, "rb") as fh:
            data = fh.read()
    from benchie_cli.textio import refuse_other_encoding

    refuse_other_encoding(data, path)  # (read as Python 2 reads it: NULs and escapes)
    return split_lines(data)


def split_lines(data: bytes) -> Iterator[str]:
    """The lines of a file's bytes as :func:`read_lines` yields them (for bytes a caller
    has read once and hashed)."""
    from benchie_cli.textio import without_bom  # (lazily: start-up counts in a scorer)

    text = without_bom(data).decode("utf-8", "surrogateescape")
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]  # the text after the last newline, maybe empty
    return iter(lines if lines[-1] else lines[:-1])


def _error(message: str, path: str, line: int | None) -> Exception:
    """The error for input the original cannot use; :mod:`benchie_cli.errors` is imported
    only when one is raised."""
    from benchie_cli.errors import BenchieError

    return BenchieError(message, path=path, line=line)


def _columns(line: str) -> list[str]:
    """``line.strip().split('\\t')`` as Python 2 splits a byte string."""
    return line.strip(WHITESPACE).split("\t")


def py2_confidence(text: str, path: str, line: int, finite: bool = True) -> float:
    """``float(text)`` as Python 2 parses a byte string (no ``_`` between digits, ASCII
    only), refusing values that are not finite unless ``finite`` is false (the scorer of
    before July 2019 takes them: docs/oie2016-2018.md). A number too large for a float
    (``1e999``, 400 digits), which Python makes infinite, is said to be so."""
    try:
        if "_" in text or not text.isascii():
            raise ValueError
        value = float(text)
    except ValueError:
        raise _error(f"confidence {text[:40]!r} is not a number", path, line) from None
    if finite and not math.isfinite(value):
        spelled = text.strip(WHITESPACE).lstrip("+-").lower() in ("inf", "infinity", "nan")
        why = "is not finite" if spelled else "is too large for a float (it reads as infinite)"
        raise _error(f"confidence {text[:40]!r} {why}", path, line)
    return value


def _add(d: Extractions, text: str, extraction: Extraction) -> None:
    bucket = d.get(text)
    if bucket is None:
        d[text] = [extraction]
    else:
        bucket.append(extraction)


def _rescaled(d: Extractions, path: str) -> Extractions:
    """ClausIE's and PropS's ``normalizeConfidence``: ``((c - min) + 0.001) / ((max - min)
    + 0.002)`` over every extraction read. The original fails on a file without any."""
    confidences = [e.confidence for exs in d.values() for e in exs]
    if not confidences:
        raise _error("no extraction: the confidence rescaling needs at least one", path, None)
    low, high = min(confidences), max(confidences)
    denominator = high - low + 2 * _EPSILON
    # tuple.__new__, not _replace (a Python-level call per extraction, most of the time a
    # large ClausIE file takes to read)
    new = tuple.__new__
    return {
        text: [new(Extraction, (e[0], e[1], ((e[2] - low) + _EPSILON) / denominator)) for e in exs]
        for text, exs in d.items()
    }


def read_gold(lines: Iterable[str], path: str = "<gold>") -> Extractions:
    """The gold ``.oie`` format: ``sentence, base verb, predicate, arg1, arg2, ...``. The
    predicate is the relation, every further column an argument, none stripped; the base
    verb is not used (``goldReader.py``)."""
    d: Extractions = {}
    for n, line in enumerate(lines, 1):
        cols = _columns(line)
        if len(cols) < 3:
            raise _error("need sentence<TAB>base verb<TAB>predicate[<TAB>argument...]", path, n)
        _add(d, cols[0], Extraction(cols[2], tuple(cols[3:]), 1.0))
    return d


def _openie_part(text: str, path: str, line: int) -> str:
    """``Kind(text,List(...))`` -> ``text``: from after the first ``(`` to the first
    ``,List(`` (of arg2's several arguments, the first is kept this way)."""
    try:
        return text[text.index("(") + 1 : text.index(",List(")]
    except ValueError:
        raise _error(f"expected Kind(text,List(...)), found {text[:60]!r}", path, line) from None


def read_openie4(
    lines: Iterable[str], path: str = "<openie4>", *, finite: bool = True
) -> Extractions:
    """OpenIE 4: ``conf, context, arg1, rel, arg2, sentence``. A line with an empty arg1,
    rel or arg2 column is skipped; the context is ignored (``openieFourReader.py``)."""
    d: Extractions = {}
    new = tuple.__new__  # (_columns, _openie_part, _add and the constructor inlined)
    for n, line in enumerate(lines, 1):
        cols = line.strip(WHITESPACE).split("\t")
        if not all(cols[2:5]):
            continue
        if len(cols) < 6:
            raise _error("need conf, context, arg1, rel, arg2, sentence", path, n)
        a, r, b = cols[2:5]
        try:
            arg1 = a[a.index("(") + 1 : a.index(",List(")]
            rel = r[r.index("(") + 1 : r.index(",List(")]
            arg2 = b[b.index("(") + 1 : b.index(",List(")]
        except ValueError:
            for part in (a, r, b):  # the first that is not Kind(text,List(...)) is named
                _openie_part(part, path, n)
            raise
        extraction = new(Extraction, (rel, (arg1, arg2), py2_confidence(cols[0], path, n, finite)))
        bucket = d.get(cols[5])
        if bucket is None:
            d[cols[5]] = [extraction]
        else:
            bucket.append(extraction)
    return d


def read_clausie(
    lines: Iterable[str], path: str = "<clausie>", *, finite: bool = True
) -> Extractions:
    """ClausIE: a one-column line is the current sentence (a blank line too: the empty
    sentence); a five-column line ``id, "arg1", "rel", "arg2", conf`` is an extraction whose
    slots lose their first and last character (the quotes); other lines are ignored.
    Confidences are rescaled (module docstring) (``clausieReader.py``)."""
    d: Extractions = {}
    text: str | None = None
    bucket: list[Extraction] = []  # the current sentence's list in d
    new = tuple.__new__  # (_columns, _add and the NamedTuple's constructor inlined)
    for n, line in enumerate(lines, 1):
        cols = line.strip(WHITESPACE).split("\t")
        if len(cols) == 1:
            text = cols[0]
            bucket = d.get(text) or []
        elif len(cols) == 5:
            if text is None:
                raise _error("extraction before any sentence line", path, n)
            confidence = py2_confidence(cols[4], path, n, finite)
            if not bucket:
                d[text] = bucket
            bucket.append(
                new(Extraction, (cols[2][1:-1], (cols[1][1:-1], cols[3][1:-1]), confidence))
            )
    return _rescaled(d, path)


def read_props(lines: Iterable[str], path: str = "<props>", *, finite: bool = True) -> Extractions:
    """PropS: ``conf, sentence, rel, role, arg, role, arg, ...``; the arguments are every
    second column from the fifth, unstripped. Blank lines are skipped. Confidences are
    rescaled (module docstring) (``propsReader.py``)."""
    d: Extractions = {}
    for n, line in enumerate(lines, 1):
        if not line.strip(WHITESPACE):
            continue
        cols = _columns(line)
        if len(cols) < 3:
            raise _error("need confidence, sentence, relation[, role, argument...]", path, n)
        _add(
            d,
            cols[1],
            Extraction(cols[2], tuple(cols[4::2]), py2_confidence(cols[0], path, n, finite)),
        )
    return _rescaled(d, path)


def read_ollie(lines: Iterable[str], path: str = "<ollie>", *, finite: bool = True) -> Extractions:
    """OLLIE: a header line, then ``conf, arg1, rel, arg2, enabler, attribution, sentence``
    (``ollieReader.py``)."""
    d: Extractions = {}
    for n, line in enumerate(lines, 1):
        if n == 1:
            continue  # the header, whatever it says
        cols = _columns(line)
        if len(cols) < 7:
            raise _error("need conf, arg1, rel, arg2, enabler, attribution, sentence", path, n)
        _add(
            d,
            cols[6],
            Extraction(cols[2], (cols[1], cols[3]), py2_confidence(cols[0], path, n, finite)),
        )
    return d


def read_stanford(
    lines: Iterable[str], path: str = "<stanford>", *, finite: bool = True
) -> Extractions:
    """Stanford Open IE (ReVerb-style columns): arg1, rel, arg2 in columns 3-5, the
    confidence in column 12, the sentence in column 13 (``stanfordReader.py``)."""
    d: Extractions = {}
    for n, line in enumerate(lines, 1):
        cols = _columns(line)
        if len(cols) < 13:
            raise _error(f"{len(cols)} columns; need 13 (arg1-arg2 at 3-5, conf 12)", path, n)
        _add(
            d,
            cols[12],
            Extraction(cols[3], (cols[2], cols[4]), py2_confidence(cols[11], path, n, finite)),
        )
    return d


def read_reverb(
    lines: Iterable[str],
    path: str = "<reverb>",
    *,
    sentences: Sequence[str],
    finite: bool = True,
) -> Extractions:
    """ReVerb: ``file, sentence number, arg1, rel, arg2, ..., conf`` (column 12). The
    sentence is ``sentences[number - 1]``, the lines of oie-benchmark's
    ``raw_sentences/all.txt`` (:func:`read_sentences`); as in the original, a number below 1
    counts from the end (``reVerbReader.py``)."""
    d: Extractions = {}
    for n, line in enumerate(lines, 1):
        cols = _columns(line)
        if len(cols) < 12:
            raise _error(f"{len(cols)} columns; need 12 (arg1-arg2 at 3-5, conf 12)", path, n)
        try:
            if "_" in cols[1] or not cols[1].isascii():  # what Python 2's int() refuses
                raise ValueError
            text: str | None = sentences[int(cols[1]) - 1]
        except (ValueError, IndexError):
            text = None
        if text is None:
            raise _error(f"sentence number {cols[1][:20]!r} is not in the sentences", path, n)
        _add(
            d,
            text,
            Extraction(cols[3], (cols[2], cols[4]), py2_confidence(cols[11], path, n, finite)),
        )
    return d


def reverb_mismatches(lines: Iterable[str], sentences: Sequence[str]) -> tuple[int, int]:
    """(mismatched, checked): of the ReVerb lines that carry their own sentence text
    (column 13, non-empty after stripping), how many name by their number (column 2) a
    sentence of ``sentences`` whose :func:`~benchie_cli.benchmarks.carb.metric.sentence_key`
    differs from that text's. :func:`read_reverb` follows the number, as the original does,
    so such a line's extraction is scored against another sentence; with
    oie-benchmark's shipped ReVerb output and ``raw_sentences/all.txt`` nearly every line
    does, hence ReVerb's near-zero published curve. Lines :func:`read_reverb` refuses (too
    few columns, a number that is not a sentence) are not counted."""
    from benchie_cli.benchmarks.carb.metric import sentence_key

    mismatched = checked = 0
    keys: dict[int, str] = {}
    for line in lines:
        cols = _columns(line)
        if len(cols) < 13 or not cols[12].strip(WHITESPACE):
            continue
        try:
            if "_" in cols[1] or not cols[1].isascii():  # as read_reverb
                raise ValueError
            number = int(cols[1])
            key = keys.get(number)
            if key is None:
                key = keys[number] = sentence_key(sentences[number - 1])
        except (ValueError, IndexError):
            continue
        checked += 1
        if sentence_key(cols[12]) != key:
            mismatched += 1
    return mismatched, checked


def read_tabbed(
    lines: Iterable[str], path: str = "<tabbed>", *, finite: bool = True
) -> Extractions:
    """The tab format of later Open IE benchmarks (supervised-oie, CaRB): ``sentence, conf,
    rel, arg1, arg2, ...``; blank lines are skipped. oie-benchmark itself has no such
    reader: this is our addition, read with the same conventions as the others."""
    d: Extractions = {}
    for n, line in enumerate(lines, 1):
        cols = _columns(line)
        if cols == [""]:
            continue
        if len(cols) < 3:
            raise _error("need sentence, confidence, relation[, argument...]", path, n)
        _add(
            d,
            cols[0],
            Extraction(cols[2], tuple(cols[3:]), py2_confidence(cols[1], path, n, finite)),
        )
    return d


#: The system-output readers by the name of the format. The first six are oie-benchmark's
#: (``benchmark.py --clausie`` etc.: ``openiefour`` there); ReVerb's needs the raw
#: sentences, so :func:`read_system` passes them.
READERS: dict[str, Callable[..., Extractions]] = {
    "clausie": read_clausie,
    "openie4": read_openie4,
    "props": read_props,
    "reverb": read_reverb,
    "ollie": read_ollie,
    "stanford": read_stanford,
    "tabbed": read_tabbed,
}


def read_sentences(path: str) -> list[str]:
    """The raw sentences file ReVerb's reader numbers its lines by (oie-benchmark's
    ``raw_sentences/all.txt``), each line stripped."""
    return [line.strip(WHITESPACE) for line in read_lines(path)]


def read_file(path: str, reader: Reader) -> Extractions:
    """``reader`` applied to the lines of ``path`` (see :func:`read_lines`)."""
    return reader(read_lines(path), path)


def read_system(path: str, fmt: str, *, sentences: Sequence[str] | None = None) -> Extractions:
    """The system output at ``path`` in format ``fmt`` (a key of :data:`READERS`);
    ``sentences`` (:func:`read_sentences`) is required for ``reverb`` only."""
    reader = READERS[fmt]
    if fmt == "reverb":
        if sentences is None:
            raise ValueError("the reverb format needs the raw sentences (read_sentences)")
        return read_reverb(read_lines(path), path, sentences=sentences)
    return reader(read_lines(path), path)
