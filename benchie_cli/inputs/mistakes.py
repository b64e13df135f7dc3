"""The mistakes people make with a submission file, caught before they become a silent 0.

A header row, a CSV saved as ``.tsv``, sentence ids shifted by one, text tokenised unlike
the gold or in another Unicode normalisation form than the gold's, a file in another
language, a system's native output format: each still parses (or fails on its first line
with a column count that says nothing of the cause), then scores next to nothing. Every
detector here looks at a bounded sample of the file's first lines (``SAMPLE_LINES``), which
its caller already holds (the scorer keeps the head of its first block, ``validate`` reads
the head of a spooled input), plus the gold's sentences, and returns :class:`Finding` s
that name the likely cause and the fix. ``validate`` turns them
into warnings, ``score`` into hints on stderr (and both into errors under ``--strict``).

:class:`Retokenizer` is the fix ``--retokenize`` applies: it re-splits slots onto their
sentence's own tokens where that is unambiguous, and counts what it mapped and left.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence

from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.inputs.findings import Finding as Finding
from benchie_cli.inputs.findings import curve_error as curve_error
from benchie_cli.inputs.findings import detect_curve as detect_curve
from benchie_cli.inputs.findings import explained as explained
from benchie_cli.inputs.findings import sample_texts
from benchie_cli.inputs.submission import split_line
from benchie_cli.textio import iter_lines
from benchie_cli.tokens import implicit_tokens

#: Lines of a file the detectors look at: enough for clear shares, few enough that the
#: checks cost a few milliseconds whatever the file's size.
SAMPLE_LINES = 2000

#: Lines the checks ``score`` runs on every file (header, format, tokenisation) look at;
#: the id-shift and language checks use the whole sample, and only on a suspicious result.
QUICK_LINES = 100

#: Non-blank lines the separator check reads: a CSV file is CSV from its first line.
SEPARATOR_LINES = 20

#: A share of sampled extractions above which a pattern is the file's, not an accident.
CLEAR_SHARE = 0.6

#: Tokenisation mismatches are reported from this share of sampled extractions up (the
#: eight upstream English systems have at most 1%) and at least ``TOKENISATION_MIN`` lines.
TOKENISATION_SHARE = 0.03
TOKENISATION_MIN = 3

_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")

LANGUAGE_NAMES = {"en": "English", "de": "German", "zh": "Chinese"}

#: Loads another language's sentences (id -> text) of the same gold version, or None when
#: there is none (a ``--gold-file``, a store without that language).
SentencesOf = Callable[[str], "Mapping[str, str] | None"]


#: Every code a :class:`Finding` has, in the order the checks run (``score --help`` lists them).
CODES = (
    "curve-file",
    "native-format",
    "header-row",
    "wrong-separator",
    "undeclared-confidence",
    "unicode-normalisation",
    "shifted-ids",
    "wrong-language",
    "tokenisation",
)

#: The likely mistakes of a whole file, each of which makes every line of it unreadable as
#: BenchIE TSV in the same way, and the line findings that way gives: once the mistake is
#: said, one of each shows what the reader met, and the rest are only counted
#: (``validate``). Other findings of the file (valid lines after a CSV head) are not its.
WHOLE_FILE = {
    "curve-file": frozenset(("columns",)),
    "wrong-separator": frozenset(("columns",)),
    "native-format": frozenset(("columns", "unknown-sentence-id", "empty-slot")),
}


def nothing_scorable(
    extractions: int, unknown: int, implicit: int, findings: Sequence[Finding]
) -> bool:
    """Whether a file is refused as one none of whose extractions can be scored
    (docs/formats.md): every extraction has a sentence id the gold lacks, or each has an
    unknown id or words its sentence lacks while a likely mistake explains it. Scoring it
    would print 0.0 with exit 0: a silent wrong number, since such a file is a misread (a
    native output read as TSV, an undeclared confidence column, ids shifted by one, another
    language) far more often than a system that found nothing. A few implicit extractions
    and nothing else, with no mistake detected, are scored: 0.0 is then their true score."""
    return (
        extractions > 0
        and unknown + implicit == extractions
        and (bool(findings) or unknown == extractions)
    )


def nothing_scored(
    shown: str, extractions: int, findings: Sequence[Finding], unknown_ids: Sequence[str], lang: str
) -> BenchieError:
    """The error for a file :func:`nothing_scorable` refuses: the likely mistake and its fix,
    else what the first unknown ids say."""
    n = extractions
    what = f"none of its {n:,} extraction{'s' if n != 1 else ''} can be scored"
    if findings:
        first = findings[0]
        return BenchieError(f"{what}: {first.message} [{first.code}]", path=shown, line=first.line)
    first_ids = list(unknown_ids)[:3]
    ids = ", ".join(repr(i) for i in first_ids)
    if first_ids and all(i.startswith("sent_id:") for i in first_ids):  # the gold's headers
        return BenchieError(
            f"{what}: its ids are written as the gold's sentence headers ({ids}); write "
            f"the bare id ({first_ids[0].removeprefix('sent_id:')!r})",
            path=shown,
        )
    if first_ids and all(len(i.split()) >= 3 for i in first_ids):  # text where ids belong
        return BenchieError(
            f"{what}: its first column holds text, not sentence ids (first: {ids}): a "
            "BenchIE TSV line starts with its sentence's id (`benchie sentences --format tsv` "
            "lists them); lines of sentence, confidence, relation and arguments are CaRB's "
            "tab format (--input-format carb)",
            path=shown,
        )
    return BenchieError(
        f"{what}: no sentence id is the gold's (first: {ids}); is --lang {lang} right?",
        path=shown,
    )


def strict_error(finding: Finding, shown: str) -> BenchieError:
    """A likely mistake under ``--strict``: an error, exit 1."""
    return BenchieError(
        f"{finding.message} (an error under --strict) [{finding.code}]",
        path=shown,
        line=finding.line,
        exit_code=ExitCode.FAILED,
    )


def read_head(path: str, limit: int = SAMPLE_LINES) -> list[bytes]:
    """The first ``limit`` lines of ``path`` (contents without line ends). A caller with a
    pipe spools it first; an unreadable line ends the sample (the reader reports it)."""
    head: list[bytes] = []
    try:
        for _, content, _ in iter_lines(path):
            head.append(content)
            if len(head) >= limit:
                break
    except BenchieError:
        pass
    return head


def keep_head(blocks: Iterable[list[bytes]], head: list[bytes]) -> Iterator[list[bytes]]:
    """Pass the scorer's line blocks through, copying the first ``SAMPLE_LINES`` lines of
    the first block into ``head`` (a ``\\r`` kept, as the detectors accept): the sample
    costs one slice, and stdin is read once."""
    for block in blocks:
        if not head:
            head.extend(block[:SAMPLE_LINES])
        yield block


# --------------------------------------------------------------------------- formats

_HEADER_WORDS = frozenset(
    (
        *("sent_id", "sentid", "sent", "id", "sid", "sentence_id", "sentence"),
        *("subject", "subj", "arg0", "arg1", "relation", "rel", "predicate", "pred"),
        *("object", "obj", "arg2", "args", "confidence", "conf", "score"),
    )
)


def detect_native(head: Sequence[bytes]) -> Finding | None:
    """A system's native output where BenchIE TSV was declared, by the detection of
    :data:`benchie_cli.inputs.native.REGISTRY` (every peeked non-blank line must fit a format)."""
    from benchie_cli.inputs.native import PEEK_LINES, REGISTRY

    lines = sample_texts(head, PEEK_LINES)
    if not lines or lines[0][1].startswith("#benchie-tsv"):
        return None
    texts = [text for _, text in lines]
    for fmt in REGISTRY.values():
        if fmt.detect(texts):
            return Finding(
                "native-format",
                f"this looks like {fmt.title} output, not BenchIE TSV: read it with "
                f"--input-format {fmt.name} (or auto), or convert it with "
                f"`benchie convert --from {fmt.name}`",
                lines[0][0],
            )
    # Auto-detection wants every peeked line to fit; JSON lines with one broken object
    # would otherwise be read as TSV and fail with a column count that says nothing.
    objects = sum(1 for t in texts if t.lstrip("\ufeff").startswith("{"))
    if objects >= CLEAR_SHARE * len(texts):
        return Finding(
            "native-format",
            f"this looks like JSON Lines ({objects} of {len(texts)} sampled lines are objects), "
            "not BenchIE TSV: read it with --input-format jsonl, which names each line that "
            "is not a valid object",
            lines[0][0],
        )
    return None


def looks_like_benchie_tsv(head: Sequence[bytes]) -> bool:
    """Whether a file's first lines are BenchIE TSV: the confidence directive first, or no
    native format's detection fits them and most have four TAB-separated columns or more
    with an id first. (Auto-detection falls back to BenchIE TSV for anything; this asks
    for the columns too, so that it is said only of a file that is one.)"""
    from benchie_cli.inputs.formats import BENCHIE_TSV
    from benchie_cli.inputs.native import PEEK_LINES, detect_head

    lines = sample_texts(head, PEEK_LINES)
    if not lines:
        return False
    if lines[0][1].lstrip("\ufeff").startswith("#benchie-tsv"):
        return True
    if detect_head(list(head)) != BENCHIE_TSV:
        return False
    rows = [text.split("\t") for _, text in lines]
    tsv = sum(1 for row in rows if len(row) >= 4 and row[0].strip())
    return tsv >= CLEAR_SHARE * len(rows)


def declared_native_error(exc: BenchieError, path: str, input_format: str) -> BenchieError:
    """``exc``, raised reading ``path`` as the native ``input_format`` given, with the likely
    cause first when the file is BenchIE TSV: a wrong ``--input-format`` otherwise gets the
    reader's words alone ("4 TAB-separated columns, need 6", "none of its sentences is a
    gold sentence: the wrong --lang?"), which send the user after the wrong fix.

    A file that cannot be read again (stdin, read once) is left as it is: peeking at it
    would wait for input that never comes."""
    from benchie_cli.inputs.formats import NATIVE_FORMATS
    from benchie_cli.textio import peek_lines, rereadable

    if input_format not in NATIVE_FORMATS or not rereadable(path):
        return exc
    try:
        head = peek_lines(path, 64 << 10)
    except BenchieError:
        return exc
    if not looks_like_benchie_tsv(head):
        return exc
    return BenchieError(
        f"this looks like BenchIE TSV: --input-format benchie (or auto) reads it; read as "
        f"--input-format {input_format}: {exc.message}",
        path=exc.path,
        line=exc.line,
        exit_code=exc.exit_code,
    )


def detect_header(head: Sequence[bytes], ids: Container[str]) -> Finding | None:
    """A first line that names the columns instead of holding an extraction (``ids``: the
    gold's sentence ids; the scorer skips the line, :meth:`Scorer._skip_header`)."""
    lines = sample_texts(head, 1)
    if not lines:
        return None
    n, text = lines[0]
    cells = [c.strip().strip("\"'").casefold() for c in re.split(r"[\t,;]", text)]
    if cells[0] in ids or len(cells) < 2:
        return None
    named = sum(1 for c in cells if c.replace(" ", "_") in _HEADER_WORDS)
    if named >= 2:
        return Finding(
            "header-row",
            f"line {n} is a header row ({text.strip()[:60]!r}), not an extraction: score "
            "skips it; remove it (BenchIE TSV has no header)",
            n,
        )
    return None


def detect_separator(head: Sequence[bytes], ids: Mapping[str, str]) -> Finding | None:
    """Comma- or semicolon-separated lines: a CSV file saved under a ``.tsv`` name."""
    lines = sample_texts(head, SEPARATOR_LINES)
    found: dict[str, list[int]] = {",": [], ";": []}
    for n, text in lines:
        if "\t" in text:
            continue
        for sep, hits in found.items():
            cells = text.split(sep)
            if len(cells) >= 4 and cells[0].strip().strip("\"'").isdigit():
                hits.append(n)
    sep, hits = max(found.items(), key=lambda item: len(item[1]))
    if lines and len(hits) >= CLEAR_SHARE * len(lines):
        what = "comma" if sep == "," else "semicolon"
        return Finding(
            "wrong-separator",
            f"lines are {what}-separated, not TAB-separated ({len(hits)} of {len(lines)} "
            "sampled lines; a CSV file saved as .tsv?): write sent_id, subject, relation "
            "and object separated by TABs",
            hits[0],
        )
    return None


#: A confidence as systems write it: a decimal with a fraction or an exponent (a bare
#: integer is as likely an n-ary argument, a year).
_FRACTION = re.compile(r"[-+]?(\d+\.\d*|\.\d+|\d+(?=[eE]))([eE][-+]?\d+)?")


def detect_confidence_column(head: Sequence[bytes]) -> Finding | None:
    """A last column of numbers in a file without the confidence directive: read as an
    n-ary argument, the number joins the object, and no extraction can match."""
    lines = sample_texts(head, SEPARATOR_LINES)
    if not lines or lines[0][1].startswith("#benchie-tsv"):
        return None
    hits = [
        n
        for n, text in lines
        if text.count("\t") >= 4 and _FRACTION.fullmatch(text.rsplit("\t", 1)[1].strip())
    ]
    if len(hits) < CLEAR_SHARE * len(lines):
        return None
    return Finding(
        "undeclared-confidence",
        f"the last column of {len(hits)} of {len(lines)} sampled lines is a number, read as "
        "part of the object (an n-ary argument), so those extractions cannot match: if it is "
        "a confidence, add the line `#benchie-tsv confidence` before the first extraction",
        hits[0],
    )


# --------------------------------------------------------------------------- Unicode form

#: The fix a ``unicode-normalisation`` finding gives: NFC, byte for byte otherwise (UTF-8
#: in and out whatever the locale, line ends kept).
NFC_COMMAND = (
    'python3 -c "import sys, unicodedata as u; sys.stdout.buffer.write('
    "u.normalize('NFC', sys.stdin.buffer.read().decode()).encode())\" < FILE > FILE.nfc"
)


def _code_points(text: str) -> str:
    """``text`` as a reader can tell its code points apart: ASCII quoted, the rest as U+XXXX
    (a decomposed letter looks like the composed one it stands for)."""
    return " + ".join(repr(c) if c.isascii() else f"U+{ord(c):04X}" for c in text)


def _decomposed_example(text: str) -> str:
    """The first run of ``text`` that NFC composes, shown code point by code point against
    what NFC makes of it ("'u' + U+0308 for 'ü'"): the two look the same on a screen."""
    start = 0
    for i in range(1, len(text) + 1):
        if i < len(text) and unicodedata.combining(text[i]):
            continue  # a mark belongs to the character before it
        run = text[start:i]
        composed = unicodedata.normalize("NFC", run)
        if composed != run:
            return f"{_code_points(run)} for {composed!r}"
        start = i
    # (a change across characters without combining marks: Hangul jamo, say)
    word = next((w for w in text.split() if not unicodedata.is_normalized("NFC", w)), text)
    composed = unicodedata.normalize("NFC", word)
    return f"{word!r} is {len(word)} code points, {len(composed)} in NFC"


def detect_unicode_form(head: Sequence[bytes], gold_words: Container[str] | None) -> Finding | None:
    """Text in another Unicode normalisation form than the gold's NFC: NFD (``'u'`` +
    U+0308 for ``'ü'``, as macOS file names and some tools write it) looks the same on a
    screen, but the scorer compares strings as the original BenchIE scorer does, so every
    word with such a letter is no word of its sentence: the extraction is implicit and
    lost. The scores stay those of the raw strings (normalising would change published
    numbers); the finding names the cause that "is the file really --lang de?" does not.

    ``gold_words``: the gold's words that are not ASCII, None for a gold that is not NFC
    itself (then no form is said to be wrong). A line counts when NFC or NFD changes it (the
    only lines that can differ); it is a hit when it is not NFC and NFC makes one of its
    words a word of the gold: only then would normalising match anything (a decomposed
    word the gold lacks anyway is no reason to blame the form, nor to refuse a file). The
    file is named when every counted line is a hit, or at least as many as a tokenisation
    mismatch needs: one stray decomposed letter in a large NFC file is no file's form."""
    if gold_words is None:
        return None
    candidates = hits = sampled = 0
    first: tuple[int, str] | None = None
    for n, text in sample_texts(head, SAMPLE_LINES):
        sampled += 1
        if text.isascii():
            continue
        if not unicodedata.is_normalized("NFC", text):
            candidates += 1
            composed = set(unicodedata.normalize("NFC", text).split()) - set(text.split())
            if any(word in gold_words for word in composed):
                hits += 1
                if first is None:
                    first = (n, text)
        elif not unicodedata.is_normalized("NFD", text):
            candidates += 1
    if first is None:
        return None
    if hits < candidates and hits < max(TOKENISATION_MIN, TOKENISATION_SHARE * candidates):
        return None
    n, text = first
    example = _decomposed_example(text)
    form = (
        f"Unicode NFD (decomposed: {example})"
        if unicodedata.is_normalized("NFD", text)
        else f"not Unicode NFC ({example})"
    )
    return Finding(
        "unicode-normalisation",
        f"line {n} is {form}, the gold is NFC: its words do not match the sentence's ({hits} "
        f"of {sampled} sampled lines are not NFC); normalise the file to NFC: {NFC_COMMAND}",
        n,
    )


# --------------------------------------------------------------------------- gold fit


class _Sample:
    """The sample's extractions: (line, sent_id, words of the three slots)."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, str, list[str]]] = []

    @classmethod
    def of(cls, head: Sequence[bytes], limit: int) -> _Sample:
        sample = cls()
        for n, raw in enumerate(head[:limit], 1):
            fields = split_line(raw)
            if fields is not None and len(fields) == 5:
                sent_id, subject, relation, obj, _ = fields
                sample.rows.append((n, sent_id, subject + relation + obj))
        return sample


class _TokenSets:
    """Each sentence's implicit-test tokens, folded, computed on first use."""

    def __init__(self, texts: Mapping[str, str], lang: str) -> None:
        self.texts = texts
        self.lang = lang
        self._sets: dict[str, frozenset[str]] = {}

    def get(self, sent_id: str) -> frozenset[str] | None:
        found = self._sets.get(sent_id)
        if found is None:
            text = self.texts.get(sent_id)
            if text is None:
                return None
            found = self._sets[sent_id] = frozenset(implicit_tokens(text, self.lang))
        return found

    def overlap(self, sent_id: str, words: list[str]) -> float | None:
        """The share of the extraction's tokens found in sentence ``sent_id``."""
        known = self.get(sent_id)
        if known is None:
            return None
        tokens = implicit_tokens(" ".join(words), self.lang)
        return sum(1 for t in tokens if t in known) / len(tokens) if tokens else None

    def explicit_share(self, sample: _Sample) -> float:
        """The share of the sample's extractions (with ids of this gold) that are explicit."""
        fits = [self.overlap(sid, words) for _, sid, words in sample.rows]
        known = [f for f in fits if f is not None]
        return sum(1 for f in known if f == 1.0) / len(known) if known else 0.0


def detect_shift(sample: _Sample, sets: _TokenSets) -> Finding | None:
    """Sentence ids shifted by one (0-based ids, or an off-by-one in an export script):
    each extraction's token overlap with sentence ``id`` against ``id-1`` and ``id+1``."""
    better = {1: 0, -1: 0}
    compared = 0
    first: dict[int, int] = {}
    smallest: int | None = None
    for n, sent_id, words in sample.rows:
        if not sent_id.isdigit():
            continue
        k = int(sent_id)
        smallest = k if smallest is None else min(smallest, k)
        here = sets.overlap(sent_id, words) or 0.0
        fits = {d: sets.overlap(str(k + d), words) for d in (1, -1)}
        if all(f is None for f in fits.values()):
            continue
        compared += 1
        for d, fit in fits.items():
            if fit is not None and fit > here:
                better[d] += 1
                first.setdefault(d, n)
    if not compared:
        return None
    d, count = max(better.items(), key=lambda item: item[1])
    share = count / compared
    if share < CLEAR_SHARE:
        return None
    cause = "ids look 0-based" if d == 1 and smallest == 0 else f"ids look shifted by {-d:+d}"
    fix = "add 1 to every id" if d == 1 else "subtract 1 from every id"
    return Finding(
        "shifted-ids",
        f"{cause}: {share:.0%} of sampled extractions fit sentence id{d:+d} better than "
        f"sentence id; {fix}",
        first[d],
    )


def detect_language(
    sample: _Sample, lang: str, sets: _TokenSets, sentences_of: SentencesOf | None
) -> Finding | None:
    """A file in another language: the language whose gold the sample fits clearly."""
    if sentences_of is None:
        return None
    declared = sets.explicit_share(sample)
    shares = {}
    for other in LANGUAGE_NAMES:
        if other == lang:
            continue
        texts = sentences_of(other)
        if texts is not None:
            shares[other] = _TokenSets(texts, other).explicit_share(sample)
    if not shares:
        return None
    best = max(shares, key=lambda k: shares[k])
    if shares[best] < CLEAR_SHARE or shares[best] < declared + 0.3:
        return None
    return Finding(
        "wrong-language",
        f"the file looks {LANGUAGE_NAMES[best]}, not {LANGUAGE_NAMES[lang]}: "
        f"{shares[best]:.0%} of sampled extractions are explicit in the {best} gold, "
        f"{declared:.0%} in the {lang} gold; score it with --lang {best}",
    )


# --------------------------------------------------------------------------- tokenisation


class _Sentences:
    """Each sentence's whitespace tokens, as a set, in order, and by first character (the
    only places a run can start): computed on first use, shared by every file of a run."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts
        self._cache: dict[str, tuple[frozenset[str], list[str], dict[str, list[int]]]] = {}

    def get(self, sent_id: str) -> tuple[frozenset[str], list[str], dict[str, list[int]]] | None:
        found = self._cache.get(sent_id)
        if found is None:
            text = self.texts.get(sent_id)
            if text is None:
                return None
            tokens = text.split()
            starts: dict[str, list[int]] = {}
            for i, token in enumerate(tokens):
                starts.setdefault(token[0], []).append(i)
            found = self._cache[sent_id] = (frozenset(tokens), tokens, starts)
        return found


def _runs(
    word: str, tokens: Sequence[str], starts: Mapping[str, list[int]]
) -> set[tuple[str, ...]]:
    """Every contiguous run of ``tokens`` whose concatenation is ``word``."""
    found = set()
    for i in starts.get(word[:1], ()):
        pos, j = 0, i
        while pos < len(word) and j < len(tokens) and word.startswith(tokens[j], pos):
            pos += len(tokens[j])
            j += 1
        if pos == len(word):
            found.add(tuple(tokens[i:j]))
    return found


def _kind(word: str, run: tuple[str, ...], lang: str) -> str:
    """What the gold split that the file did not, for the message."""
    if lang == "zh":
        return "Chinese without spaces"
    if any(t.casefold() == "n't" for t in run):
        return "n't attached"
    if any(t.casefold() in ("'s", "'re", "'ll", "'ve", "'m", "'d", "'") for t in run):
        return "'s attached"
    return "punctuation attached"


def _glued(sample: _Sample, sentences: _Sentences, lang: str) -> bool:
    """Whether some word of the sample is glued from several tokens of its sentence: the
    cheap test that lets a normal file skip the count over the whole sample."""
    glued_only = lang != "zh"
    for _, sent_id, words in sample.rows:
        sentence = sentences.get(sent_id)
        if sentence is None or sentence[0].issuperset(words):
            continue
        known, tokens, starts = sentence
        for word in words:
            if word in known or (glued_only and word.isalnum()):
                continue
            if _runs(word, tokens, starts):
                return True
    return False


def detect_tokenisation(sample: _Sample, sentences: _Sentences, lang: str) -> Finding | None:
    """Words tokenised unlike the gold: ``don't`` for ``do n't``, ``John's`` for ``John 's``,
    ``end.`` for ``end .``, Chinese without spaces; each a word that is no word of its
    sentence but the concatenation of a run of them."""
    hits = 0
    compared = 0
    example: tuple[int, str, tuple[str, ...], str] | None = None
    kinds: dict[str, int] = {}
    # Outside Chinese a word glued from tokens holds an apostrophe or a punctuation mark:
    # an alphanumeric word (most words a sentence lacks) needs no search.
    glued_only = lang != "zh"
    for n, sent_id, words in sample.rows:
        sentence = sentences.get(sent_id)
        if sentence is None:
            continue
        known, tokens, starts = sentence
        compared += 1
        if known.issuperset(words):
            continue
        for word in words:
            if word in known or (glued_only and word.isalnum()):
                continue
            runs = _runs(word, tokens, starts)
            if runs:
                run = min(runs)
                kind = _kind(word, run, lang)
                kinds[kind] = kinds.get(kind, 0) + 1
                hits += 1
                if example is None:
                    example = (n, word, run, sent_id)
                break
    if example is None or hits < max(TOKENISATION_MIN, TOKENISATION_SHARE * compared):
        return None
    n, word, run, sent_id = example
    what = ", ".join(f"{k} ({v})" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]))
    return Finding(
        "tokenisation",
        f"{hits} of {compared} sampled extractions are tokenised unlike the gold ({what}; "
        f"e.g. {word!r} where sentence {sent_id} has {' '.join(run)!r}): split words as "
        "the gold's sentences do, or score with --retokenize",
        n,
    )


# --------------------------------------------------------------------------- all checks


class MistakeCheck:
    """Every detector for one declared language and gold; ``sentences_of`` gives the other
    languages' sentences for the language check (None: no such check). Under
    ``retokenize`` the tokenisation check is moot: the mapping is its fix. One instance
    serves a whole run, so each sentence is split once, not once per file."""

    def __init__(
        self,
        lang: str,
        texts: Mapping[str, str],
        sentences_of: SentencesOf | None = None,
        retokenize: bool = False,
    ) -> None:
        self.lang = lang
        self.texts = texts
        self.sentences_of = sentences_of
        self.retokenize = retokenize
        self.sentences = _Sentences(texts)
        self._gold_words: frozenset[str] | None = None
        self._gold_nfc: bool | None = None

    @property
    def gold_words(self) -> frozenset[str] | None:
        """The gold's words that are not ASCII (those a Unicode form can change), or None
        when a sentence of the gold is not NFC itself (a gold in another form is compared
        as it is, and no form is said to be wrong); computed once for a whole run."""
        if self._gold_nfc is None:
            texts = self.texts.values()
            self._gold_nfc = all(unicodedata.is_normalized("NFC", t) for t in texts)
            if self._gold_nfc:
                self._gold_words = frozenset(
                    w for t in texts if not t.isascii() for w in t.split() if not w.isascii()
                )
        return self._gold_words

    def format(self, head: Sequence[bytes]) -> list[Finding]:
        """The checks that explain a file that does not parse, or parses as nonsense."""
        whole = detect_curve(head) or detect_native(head)
        if whole is not None:
            return [whole]
        found = [
            detect_header(head, self.texts),
            detect_separator(head, self.texts),
            detect_confidence_column(head),
        ]
        return [f for f in found if f is not None]

    def check(
        self, head: Sequence[bytes], *, suspicious: bool = True, reading_error: bool = False
    ) -> list[Finding]:
        """Every finding on the sample. ``suspicious=False`` (a result that looks normal)
        runs only the cheap checks on the first ``QUICK_LINES`` lines, and the Unicode
        form's on the whole sample: a file in NFD may lose too few extractions to look
        suspicious, and the check costs a test of each non-ASCII line. ``reading_error``:
        the findings explain a line the reader could not read, which the Unicode form
        never is (every line of another form reads), so it is left out."""
        found = self.format(head)
        if any(
            f.code in ("curve-file", "native-format", "wrong-separator", "undeclared-confidence")
            for f in found
        ):
            return found
        form = None if reading_error else detect_unicode_form(head, self.gold_words)
        if form is not None:  # said before the gold fit: it is why words miss their sentence
            found.append(form)
        if suspicious:
            sample = _Sample.of(head, SAMPLE_LINES)
            sets = _TokenSets(self.texts, self.lang)
            gold_fit = detect_shift(sample, sets) or detect_language(
                sample, self.lang, sets, self.sentences_of
            )
            if gold_fit is not None:  # it explains everything else the sample shows
                return [*found, gold_fit]
        if not self.retokenize and _glued(_Sample.of(head, QUICK_LINES), self.sentences, self.lang):
            # A glued word in the first lines: count them over the whole sample.
            tokenisation = detect_tokenisation(
                _Sample.of(head, SAMPLE_LINES), self.sentences, self.lang
            )
            if tokenisation is not None:
                found.append(tokenisation)
        return found


# --------------------------------------------------------------------------- --retokenize


class Retokenizer:
    """``--retokenize``: each slot with a word its sentence lacks is re-split onto the
    sentence's own tokens, when that is unambiguous: the slot, whitespace removed, is the
    concatenation of exactly one distinct contiguous run of tokens; else each such word is.
    Anything else is left as it is. ``mapped`` and ``left`` count slots."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.sentences = _Sentences(texts)
        self.mapped = 0
        self.left = 0

    def slot(self, sent_id: str, words: list[str]) -> list[str]:
        """The slot's words, mapped onto sentence ``sent_id``'s tokens where unambiguous."""
        sentence = self.sentences.get(sent_id)
        if sentence is None:
            return words
        known, tokens, starts = sentence
        if known.issuperset(words):
            return words
        whole = _runs("".join(words), tokens, starts)
        if len(whole) == 1:
            self.mapped += 1
            return list(next(iter(whole)))
        out: list[str] = []
        for word in words:
            runs = _runs(word, tokens, starts) if word not in known else {(word,)}
            if len(runs) != 1:
                self.left += 1
                return words
            out.extend(next(iter(runs)))
        self.mapped += 1
        return out

    def line(self, raw: bytes) -> bytes:
        """One submission line (as the scorer reads it, a ``\\r`` perhaps kept) with its
        slot columns mapped; the same bytes when nothing changed. A column that is a number
        (a confidence) is never touched, and the columns stay as they were."""
        end = b"\r" if raw.endswith(b"\r") else b""
        try:
            cells = raw[: len(raw) - len(end)].decode("utf-8").split("\t")
        except UnicodeDecodeError:
            return raw  # the scorer reports the bad byte
        if len(cells) < 4:
            return raw
        sent_id = cells[0].strip()
        out = cells[:1]
        changed = False
        for cell in cells[1:]:
            words = cell.split()
            mapped = words if _NUMBER.fullmatch(cell.strip()) else self.slot(sent_id, words)
            if mapped is words:
                out.append(cell)
            else:
                changed = True
                out.append(" ".join(mapped))
        return "\t".join(out).encode() + end if changed else raw

    def blocks(self, blocks: Iterable[list[bytes]]) -> Iterator[list[bytes]]:
        """The scorer's line blocks with every line mapped."""
        for block in blocks:
            yield [self.line(raw) for raw in block]


def retokenize_texts(
    texts: Mapping[str, Sequence[tuple[str, tuple[str, ...], float]]],
) -> tuple[dict[str, list[tuple[str, tuple[str, ...], float]]], int, int]:
    """``--retokenize`` for extractions keyed by their sentence's text (every benchmark but
    BenchIE meets sentences by text): each slot re-split onto that sentence's own tokens
    where unambiguous, as :class:`Retokenizer` does for BenchIE. Returns the extractions,
    and how many slots were mapped and left."""
    retokenizer = Retokenizer({text: text for text in texts})

    def slot(text: str, value: str) -> str:
        words = value.split()
        mapped = retokenizer.slot(text, words)
        return value if mapped is words else " ".join(mapped)

    out = {
        text: [(slot(text, p), tuple(slot(text, a) for a in args), c) for p, args, c in xs]
        for text, xs in texts.items()
    }
    return out, retokenizer.mapped, retokenizer.left
