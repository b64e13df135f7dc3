"""CaRB's inputs read the way CaRB's own readers read them (docs/carb.md, "Reading").

CaRB (Bhardwaj, Aggarwal, Mausam, EMNLP-IJCNLP 2019; github.com/dair-iitd/CaRB, MIT) scores
what its readers make of a file, quirks included: OpenIE 4 keeps only the first ``arg2``,
ClausIE drops every line that is not exactly five columns, PropS keeps its arguments'
trailing spaces, OpenIE 5 prefixes a context to ``arg1``. :mod:`benchie_cli.inputs.native` reads
the same formats for BenchIE and repairs or refuses such things, so reusing it would change
CaRB's numbers; these readers reproduce CaRB's instead. They take lines as text mode yields
them (universal newlines, as CaRB's ``open`` does) and differ from CaRB only where CaRB
would crash or compute nonsense: a malformed line is a :class:`BenchieError` naming its line,
and a NaN confidence is refused, since no threshold order exists for it.

Besides CaRB's own readers (``openie4``, ``openie5``, ``clausie``, ``props``, ``tabbed``,
``ollie``, ``reverb``), ``allennlp`` reads OpenIE6's tagged lines as the reader of OpenIE6's
copy of the scorer (github.com/dair-iitd/openie6, ``carb.py --allennlp``) does; this one was
written from its documented behaviour (docs/carb.md, "Reading"), none of its code copied.

Each reader returns ``{sentence text: [Extraction, ...]}`` in order of first appearance,
keyed by the text exactly as the file has it; :func:`benchie_cli.benchmarks.carb.metric.group` then
merges keys the way CaRB compares sentences.

A system reader may be told which texts need only their confidences (``confidence_only``):
CaRB never compares the extractions of sentences outside the gold, but their confidences
are thresholds of its curve. Such lines are read as placeholders, ``Extraction("", (),
confidence)``, without parsing (or checking) the rest of the line. Outputs often cover many
more sentences than the gold, and reading their extractions in full is most of the time
scoring them would take.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol, TextIO

if TYPE_CHECKING:
    from benchie_cli.inputs.submission import Extraction as SubmissionExtraction


class Extraction(NamedTuple):
    """One tuple as CaRB holds it: the relation, the arguments in order (``args[0]`` is the
    subject) and the confidence (1.0 for gold tuples), a float as every reader gives it. (An
    int is no float to a compiled build, which turns it into one: the pure build would keep
    it, and write ``1`` in a curve where the compiled build writes ``1.0``.)"""

    pred: str
    args: tuple[str, ...]
    confidence: float


#: What every reader returns: extractions by sentence text, in order of first appearance.
Extractions = dict[str, list[Extraction]]

#: Whether a sentence text needs only the confidences of its extractions (module docstring).
ConfidenceOnly = Callable[[str], bool]


class Reader(Protocol):
    """A system-output reader (:data:`READERS`). Each has a default ``path`` of its own,
    naming its format; this one is a placeholder (``...`` would be the usual one, but a
    compiled build cannot give a ``str`` argument an Ellipsis)."""

    def __call__(
        self,
        lines: Iterable[str],
        path: str = "<system>",
        *,
        confidence_only: ConfidenceOnly | None = None,
    ) -> Extractions: ...


def _deciding(confidence_only: ConfidenceOnly | None) -> ConfidenceOnly:
    """``confidence_only``, asked once per text: a reader meets each text on many lines."""
    if confidence_only is None:
        return lambda text: False
    decided: dict[str, bool] = {}

    def decide(text: str) -> bool:
        answer = decided.get(text)
        if answer is None:
            answer = decided[text] = confidence_only(text)
        return answer

    return decide


#: The line breaks ``str.splitlines`` knows besides universal newlines' ``\n``, ``\r`` and
#: ``\r\n``.
_OTHER_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def universal_lines(text: str) -> bool:
    """Whether ``text.splitlines()`` gives the lines text mode gives (universal newlines,
    as CaRB's ``open``), without their line ends: when ``text`` holds no other break. Every
    reader here strips its lines, so that list may stand in for them, and is several times
    faster to make than iterating a text stream (a test compares both on every break)."""
    return not any(c in text for c in _OTHER_BREAKS)


def split_lines(text: str) -> list[str]:
    """``text.splitlines()``, faster for a text of LF line ends: ``str.split`` looks for one
    character, where ``splitlines`` tests every character against all its breaks (1 ms
    against 6 on CaRB's 3 MB OpenIE 4 output). A text holding CR or another break is split
    by ``splitlines`` itself."""
    if "\r" in text or not universal_lines(text):
        return text.splitlines()
    lines = text.split("\n")
    if not lines[-1]:  # (after a final LF, or of an empty text: no line)
        lines.pop()
    return lines


def text_lines(text: str) -> Iterable[str]:
    """``text``'s lines for these readers: as text mode would give them (universal
    newlines), by the faster way that gives the same (:func:`universal_lines`)."""
    return split_lines(text) if universal_lines(text) else io.StringIO(text, newline=None)


def open_text(path: str) -> TextIO:
    """A UTF-8 text file (gzip-compressed if its name ends in ``.gz``) with universal
    newlines, which is how CaRB's ``open(fn)`` splits lines; read whole within the bound
    of :func:`benchie_cli.textio.read_whole`, decoded without its BOM as every reader is."""
    from benchie_cli.textio import decode_text, gunzip, read_whole  # lazily: start-up counts

    data = read_whole(path)
    if path.endswith(".gz"):
        data = gunzip(data, path)
    return io.StringIO(decode_text(data, path), newline=None)


def _error(message: str, path: str, line: int) -> Exception:
    """The error for a line CaRB cannot use. :mod:`benchie_cli.errors` is imported only
    here: a well-formed file, the usual case, never pays for it at start-up."""
    from benchie_cli.errors import BenchieError

    return BenchieError(message, path=path, line=line)


def _confidence(text: str, path: str, line: int) -> float:
    """``float(text)`` as CaRB parses it, except that NaN is refused."""
    try:
        value = float(text)
    except ValueError:
        raise _error(f"confidence {text[:40]!r} is not a number", path, line) from None
    if value != value:
        raise _error("confidence is NaN, which has no threshold order", path, line)
    return value


def _add(d: Extractions, text: str, extraction: Extraction) -> None:
    bucket = d.get(text)
    if bucket is None:
        d[text] = [extraction]
    else:
        bucket.append(extraction)


def _placeholder(confidence: float) -> Extraction:
    return Extraction("", (), confidence)


# Every CaRB reader splits a line as ``line.strip().split("\t")``, so a trailing empty
# column vanishes and the first and last columns lose their outer whitespace.


def read_gold(lines: Iterable[str], path: str = "<gold>") -> Extractions:
    """CaRB's gold format: ``sentence<TAB>relation<TAB>arg1[<TAB>arg2...]``. The sentence,
    relation and arguments are stripped; an argument containing ``C: `` (a context marker)
    is dropped. Read on every run, so :func:`_add` is inlined and the tuple built by
    ``tuple.__new__``, as in :func:`read_openie4`."""
    d: Extractions = {}
    new = tuple.__new__
    for n, line in enumerate(lines, 1):
        cols = line.strip().split("\t")
        if len(cols) < 2:
            raise _error("need sentence<TAB>relation[<TAB>argument...]", path, n)
        args = tuple([a.strip() for a in cols[2:] if "C: " not in a])
        text = cols[0].strip()
        extraction = new(Extraction, (cols[1].strip(), args, 1.0))
        bucket = d.get(text)
        if bucket is None:
            d[text] = [extraction]
        else:
            bucket.append(extraction)
    return d


def _openie_part(text: str, path: str, line: int) -> str:
    """``Kind(text,List(...))`` -> ``text``: from after the first ``(`` up to the first
    ``,List(``, as CaRB slices it (a text containing ``,List(`` is cut there)."""
    try:
        return text[text.index("(") + 1 : text.index(",List(")]
    except ValueError:
        raise _error(f"expected Kind(text,List(...)), found {text[:60]!r}", path, line) from None


def _openie_columns(line: str, path: str, n: int) -> list[str] | None:
    """The columns of a line CaRB uses, None for one it skips: one whose argument,
    relation or argument column is empty. CaRB crashes on one with fewer than six columns
    (an error here)."""
    cols = line.strip().split("\t")
    if not all(cols[2:5]):
        return None
    if len(cols) < 6:
        raise _error(
            f"{len(cols)} TAB-separated columns, need 6: confidence, context, argument, "
            "relation, arguments, sentence",
            path,
            n,
        )
    return cols


def _openie_error(line: str, path: str, n: int) -> Exception:
    """The error of an OpenIE line that :func:`read_openie4`'s fast path could not read,
    found by the helpers it inlines."""
    cols = _openie_columns(line, path, n)  # raises if the line is short
    assert cols is not None  # the fast path skips the lines this would skip
    for part in cols[2:5]:
        _openie_part(part, path, n)
    return _error(f"confidence {cols[0][:40]!r} is not a number", path, n)


def read_openie4(
    lines: Iterable[str], path: str = "<openie4>", *, confidence_only: ConfidenceOnly | None = None
) -> Extractions:
    """OpenIE 4: ``conf, context, arg1, rel, arg2, sentence``; the context is ignored and
    only the first argument of the arg2 column is kept (CaRB's ``OpenieFourReader``).

    The helpers are inlined and the tuple is built by ``tuple.__new__`` (a NamedTuple's own
    constructor is a Python-level call): outputs are large, and this loop is most of the
    time it takes to score them."""
    d: Extractions = {}
    decided: dict[str, bool] = {}  # _deciding, inlined
    new = tuple.__new__
    for n, line in enumerate(lines, 1):
        cols = line.strip().split("\t")
        if not all(cols[2:5]):
            continue
        try:
            text = cols[5]
            confidence = float(cols[0])
            only = decided.get(text)
            if only is None:
                only = decided[text] = confidence_only is not None and confidence_only(text)
            if only:
                extraction = new(Extraction, ("", (), confidence))
            else:
                a, r, b = cols[2:5]
                args = (
                    a[a.index("(") + 1 : a.index(",List(")],
                    b[b.index("(") + 1 : b.index(",List(")],
                )
                rel = r[r.index("(") + 1 : r.index(",List(")]
                extraction = new(Extraction, (rel, args, confidence))
        except (ValueError, IndexError):
            raise _openie_error(line, path, n) from None
        if confidence != confidence:
            raise _error("confidence is NaN, which has no threshold order", path, n)
        bucket = d.get(text)
        if bucket is None:
            d[text] = [extraction]
        else:
            bucket.append(extraction)
    return d


def read_openie5(
    lines: Iterable[str], path: str = "<openie5>", *, confidence_only: ConfidenceOnly | None = None
) -> Extractions:
    """OpenIE 5: as OpenIE 4, but the arg2 column holds several arguments separated by
    ``);`` and all are kept; a context not already at the start of ``arg1 + ' ' + rel`` is
    prefixed to ``arg1`` (CaRB's ``OpenieFiveReader``)."""
    d: Extractions = {}
    only = _deciding(confidence_only)
    for n, line in enumerate(lines, 1):
        cols = _openie_columns(line, path, n)
        if cols is None:
            continue
        confidence = _confidence(cols[0], path, n)
        if only(cols[5]):
            _add(d, cols[5], _placeholder(confidence))
            continue
        arg1, rel = _openie_part(cols[2], path, n), _openie_part(cols[3], path, n)
        args = [_openie_part(a, path, n) for a in cols[4].strip().split(");")]
        if cols[1]:
            context = _openie_part(cols[1], path, n)
            if not f"{arg1} {rel}".startswith(context):
                arg1 = f"{context} {arg1}"
        _add(d, cols[5], Extraction(rel, (arg1, *args), confidence))
    return d


def read_clausie(
    lines: Iterable[str], path: str = "<clausie>", *, confidence_only: ConfidenceOnly | None = None
) -> Extractions:
    """ClausIE: a one-column line is the sentence (a blank line too: the empty sentence);
    a five-column line ``id, "arg1", "rel", "arg2", conf`` is an extraction, its slots'
    first and last characters (the quotes) cut off; any other line is ignored, n-ary ones
    included (CaRB's ``ClausieReader``)."""
    d: Extractions = {}
    only = _deciding(confidence_only)
    text: str | None = None
    for n, line in enumerate(lines, 1):
        cols = line.strip().split("\t")
        if len(cols) == 1:
            text = cols[0]
        elif len(cols) == 5:
            if text is None:
                raise _error("extraction before any sentence line", path, n)
            confidence = _confidence(cols[4], path, n)
            if only(text):
                _add(d, text, _placeholder(confidence))
                continue
            arg1, rel, arg2 = (c[1:-1] for c in cols[1:4])
            _add(d, text, Extraction(rel, (arg1, arg2), confidence))
    return d


def _read_rows(
    lines: Iterable[str],
    path: str,
    confidence_only: ConfidenceOnly | None,
    need: str,
    row: Callable[[list[str]], tuple[str, str, str, tuple[str, ...]]],
) -> Extractions:
    """A reader of one extraction per tab-separated line, blank lines skipped; ``row``
    picks ``(sentence, confidence, relation, arguments)`` from the columns, of which there
    are at least three (``need`` names them for the error)."""
    d: Extractions = {}
    only = _deciding(confidence_only)
    for n, line in enumerate(lines, 1):
        cols = line.strip().split("\t")
        if cols == [""]:
            continue
        if len(cols) < 3:
            raise _error(f"need {need}", path, n)
        text, conf, rel, args = row(cols)
        confidence = _confidence(conf, path, n)
        if only(text):
            _add(d, text, _placeholder(confidence))
        else:
            _add(d, text, Extraction(rel, args, confidence))
    return d


def read_props(
    lines: Iterable[str], path: str = "<props>", *, confidence_only: ConfidenceOnly | None = None
) -> Extractions:
    """PropS: ``conf, sentence, rel, role, arg, role, arg...``; the arguments are every
    second column from the fifth, unstripped (CaRB's ``PropSReader``). Blank lines are
    skipped."""
    return _read_rows(
        lines,
        path,
        confidence_only,
        "confidence, sentence, relation[, role, argument...]",
        lambda cols: (cols[1], cols[0], cols[2], tuple(cols[4::2])),
    )


def read_tabbed(
    lines: Iterable[str], path: str = "<tabbed>", *, confidence_only: ConfidenceOnly | None = None
) -> Extractions:
    """CaRB's own tab format: ``sentence, conf, rel, arg1, arg2...`` (``TabReader``). Blank
    lines are skipped."""
    return _read_rows(
        lines,
        path,
        confidence_only,
        "sentence, confidence, relation[, argument...]",
        lambda cols: (cols[0], cols[1], cols[2], tuple(cols[3:])),
    )


def read_ollie(
    lines: Iterable[str], path: str = "<ollie>", *, confidence_only: ConfidenceOnly | None = None
) -> Extractions:
    """OLLIE's tab-separated output (CaRB's ``OllieReader``): the first line is its header
    and is skipped, whatever it holds; every other line is ``conf, arg1, rel, arg2, enabler,
    attribution, text[, pattern, dependencies]``, the arguments ``(arg1, arg2)``. Nothing is
    skipped: an empty slot is an empty string, and enabler and attribution are not read. A
    line with fewer than seven columns once stripped (a blank one too) is one CaRB crashes
    on."""
    d: Extractions = {}
    only = _deciding(confidence_only)
    for n, line in enumerate(lines, 1):
        if n == 1:
            continue  # OLLIE's header, read and dropped unseen
        cols = line.strip().split("\t")
        if len(cols) < 7:
            raise _error(
                f"{len(cols)} TAB-separated column(s), need 7: confidence, arg1, rel, arg2, "
                "enabler, attribution, text (OLLIE's tab output, after its header line)",
                path,
                n,
            )
        text = cols[6]
        confidence = _confidence(cols[0], path, n)
        if only(text):
            _add(d, text, _placeholder(confidence))
        else:
            _add(d, text, Extraction(cols[2], (cols[1], cols[3]), confidence))
    return d


def read_sentences(lines: Iterable[str]) -> list[str]:
    """The raw sentences ReVerb's lines are numbered by, as CaRB's ``ReVerbReader`` reads
    its ``raw_sentences/all.txt``: every line, stripped."""
    return [line.strip() for line in lines]


def read_reverb(
    lines: Iterable[str],
    path: str = "<reverb>",
    *,
    confidence_only: ConfidenceOnly | None = None,
    sentences: Sequence[str] | None = None,
) -> Extractions:
    """ReVerb's output (CaRB's ``ReVerbReader``): ``file, sentence number, arg1, rel, arg2``,
    six offsets, the confidence in column 12, then ReVerb's own columns, none of them read.
    The sentence is ``sentences[number - 1]`` (:func:`read_sentences` of the input ReVerb
    ran on): the text in column 13 is not read. As with Python's indexing in the original,
    a number below 1 counts from the end; one that is not an integer or beyond the
    sentences, or a line of fewer than 12 columns (a blank one too), is one CaRB crashes
    on."""
    if sentences is None:
        raise ValueError("the reverb format needs the raw sentences its lines are numbered by")
    d: Extractions = {}
    only = _deciding(confidence_only)
    for n, line in enumerate(lines, 1):
        cols = line.strip().split("\t")
        if len(cols) < 12:
            raise _error(
                f"{len(cols)} TAB-separated column(s), need 12: file, sentence number, arg1, "
                "rel, arg2, six offsets, confidence (ReVerb's output)",
                path,
                n,
            )
        try:
            text = sentences[int(cols[1]) - 1]
        except (ValueError, IndexError):
            raise _error(
                f"sentence number {cols[1][:20]!r} is not one of the {len(sentences):,} "
                "sentences its lines are numbered by",
                path,
                n,
            ) from None
        confidence = _confidence(cols[11], path, n)
        if only(text):
            _add(d, text, _placeholder(confidence))
        else:
            _add(d, text, Extraction(cols[3], (cols[2], cols[4]), confidence))
    return d


def _tagged(tagged: str, tag: str) -> str:
    """The text between the first ``<tag>`` and the first ``</tag>``, unstripped, as
    OpenIE6's reader slices it: empty when either is missing (or the closing one comes
    first)."""
    start = tagged.find(f"<{tag}>")
    end = tagged.find(f"</{tag}>")
    if start < 0 or end < 0:
        return ""
    return tagged[start + len(tag) + 2 : end]


def read_allennlp(
    lines: Iterable[str],
    path: str = "<allennlp>",
    *,
    confidence_only: ConfidenceOnly | None = None,
) -> Extractions:
    """OpenIE6's tagged lines, as its ``carb.py --allennlp`` reads them
    (``AllennlpReader``): ``sentence<TAB>tagged<TAB>confidence``, where the tagged column
    holds ``<arg1> ... </arg1> <rel> ... </rel> <arg2> ... </arg2>``. The relation and the
    arguments ``(arg1, arg2)`` are the texts inside the first pair of each tag, unstripped
    and as written (``[is]`` included); a missing tag gives an empty slot, and any other
    tag (``<arg3>``...) is not read. A line whose three slots are all empty is skipped
    before its confidence is read. The confidence is ``float`` of the third column, as
    given. A line with fewer than three columns once stripped (a blank one too) is one the
    original crashes on."""
    d: Extractions = {}
    only = _deciding(confidence_only)
    for n, line in enumerate(lines, 1):
        cols = line.strip().split("\t")
        if len(cols) < 3:
            raise _error(
                f"{len(cols)} TAB-separated column(s), need 3: sentence, tagged extraction "
                "(<arg1> ... </arg1> <rel> ... </rel> <arg2> ... </arg2>), confidence",
                path,
                n,
            )
        text, tagged = cols[0], cols[1]
        arg1 = _tagged(tagged, "arg1")
        rel = _tagged(tagged, "rel")
        arg2 = _tagged(tagged, "arg2")
        if not (arg1 or arg2 or rel):
            continue
        confidence = _confidence(cols[2], path, n)
        if only(text):
            _add(d, text, _placeholder(confidence))
        else:
            _add(d, text, Extraction(rel, (arg1, arg2), confidence))
    return d


#: CaRB's system-output readers by the name of its scorer's flag (``--openiefour`` etc.);
#: ``allennlp`` is that of OpenIE6's copy of the scorer. ``reverb`` needs the raw sentences
#: its lines are numbered by (:func:`read_system`).
READERS: dict[str, Reader] = {
    "openie4": read_openie4,
    "openie5": read_openie5,
    "clausie": read_clausie,
    "props": read_props,
    "tabbed": read_tabbed,
    "ollie": read_ollie,
    "reverb": read_reverb,
    "allennlp": read_allennlp,
}

#: The readers that need the raw sentences (``sentences=``): their lines number sentences.
NUMBERED = frozenset({"reverb"})


#: OLLIE's tab output starts with this header (``ollie --output-format tabbed``), then
#: ``pattern`` and ``dependencies``.
OLLIE_HEADER = ("confidence", "arg1", "rel", "arg2", "enabler", "attribution", "text")
#: The opening tags of OpenIE6's tagged column that its reader reads.
_TAGS = ("<arg1>", "<rel>", "<arg2>")
#: Bytes and non-blank lines of a file's start that :func:`detect` reads.
_PEEK_BYTES = 64 << 10
_PEEK_LINES = 20


def _allennlp_line(line: str) -> bool:
    cols = line.strip().split("\t")
    return len(cols) >= 3 and any(tag in cols[1] for tag in _TAGS)


def detect(data: bytes) -> str | None:
    """The reader of :data:`READERS` a file's bytes are for, among the formats only a CaRB
    scorer reads (None: another format, for :mod:`benchie_cli.inputs.native` to detect).

    - ``ollie``: the file's first line, which the reader skips, is OLLIE's tab header
      (:data:`OLLIE_HEADER`, then any columns);
    - ``allennlp``: every one of the first 20 non-blank lines but at most one (a typo the
      reader then names) has three columns or more, the second holding ``<arg1>``,
      ``<rel>`` or ``<arg2>``."""
    from benchie_cli.textio import head_lines  # lazily: start-up counts

    head = [raw.decode("utf-8", "replace") for raw in head_lines(data, _PEEK_BYTES)]
    if not head:
        return None
    if tuple(head[0].strip().split("\t")[: len(OLLIE_HEADER)]) == OLLIE_HEADER:
        return "ollie"
    lines = [line for line in head if line.strip()][:_PEEK_LINES]
    fitting = sum(1 for line in lines if _allennlp_line(line))
    if lines and (fitting == len(lines) or (len(lines) >= 3 and fitting == len(lines) - 1)):
        return "allennlp"
    return None


def read_file(path: str, reader: Callable[[Iterable[str], str], Extractions]) -> Extractions:
    """``reader`` applied to the lines of ``path`` (see :func:`open_text`)."""
    with open_text(path) as fh:
        return reader(fh, path)


def read_system(
    path: str,
    fmt: str,
    *,
    confidence_only: ConfidenceOnly | None = None,
    sentences: Sequence[str] | None = None,
) -> Extractions:
    """The system output at ``path`` in format ``fmt`` (a key of :data:`READERS`);
    ``sentences`` (:func:`read_sentences`) are required for the formats of
    :data:`NUMBERED`, and only read by them."""
    with open_text(path) as fh:
        if fmt in NUMBERED:
            return read_reverb(fh, path, confidence_only=confidence_only, sentences=sentences)
        return READERS[fmt](fh, path, confidence_only=confidence_only)


def from_submission(
    extractions: Iterable[SubmissionExtraction], texts: Mapping[str, str]
) -> Extractions:
    """BenchIE submission lines as CaRB extractions: the sentence is the gold's text of
    the line's sentence id (lines of unknown ids are left out), ``(subject, object)`` are
    the arguments (an n-ary line's extra columns are already folded into the object, which
    CaRB's binary match would do anyway) and the confidence is the line's, else 1.0."""
    d: Extractions = {}
    for e in extractions:
        text = texts.get(e.sent_id)
        if text is not None:
            conf = 1.0 if e.confidence is None else float(e.confidence)
            _add(d, text, Extraction(e.relation, (e.subject, e.object), conf))
    return d
