"""The gold annotation format (docs/formats.md, "Gold annotation format"), parsed into
sentences, fact synsets and triples.

One pass over the file builds the model and records every format defect as a diagnostic, so
that ``score`` and ``validate`` read gold identically: the validator only adds checks that
need more than one line (tokens absent from the sentence). The leniency rules are the ones
needed to reproduce the published numbers: a malformed line that mentions ``Cluster`` is
still a header; any other unrecognised line is ignored and the triples after it stay in the
current synset.

The parser is also where a gold file's size is bounded, so that what it costs to parse, index
and match grows with the file and never with the product of its parts. Beyond each limit the
file is refused (:class:`BenchieError`: one ``PATH:LINE: error`` line and exit status 2, or
that error as ``validate``'s finding); each leaves the real gold (at most 272 triple lines and
20 synsets in a sentence, 17 units in a slot, 8,150 triple lines and 300 sentences in a file)
untouched by a wide margin:

- ``MAX_TRIPLES_PER_SENTENCE`` and ``MAX_SYNSETS_PER_SENTENCE``: matching keeps, per
  sentence, bit sets as wide as its triple count (one per slot form) and a coverage bit set
  as wide as its synset count; one sentence of 10^5 triple lines (a 5.6 MB file) cost
  gigabytes, and every extraction of it seconds.
- ``MAX_UNITS_PER_SLOT``: the dynamic programme that matches a slot costs units x units
  (``SlotPattern.matches``); 16,000 optional units took 85 s for one extraction.
- ``MAX_TRIPLES``, ``MAX_SYNSETS``, ``MAX_SENTENCES`` per file: each costs a few hundred
  bytes of memory in the model, whatever its line's length.
- At most ``MAX_DIAGNOSTICS`` diagnostics are kept (the rest are counted in
  ``Gold.diagnostics_omitted``): a file of 10^6 stray lines would otherwise keep 10^6
  messages. Diagnostics quote at most a bounded prefix of a line (``slots.quote``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from benchie_cli.errors import BenchieError, Diagnostic
from benchie_cli.records import Record
from benchie_cli.slots import SlotIssue, SlotPattern, parse_slot, quote
from benchie_cli.textio import display_name, read_whole, split_text_lines

ARROW = " --> "
SENTENCE_PREFIX = "sent_id:"
_HEADER = re.compile(r"^([^\s]+)--> Cluster \d+:$")
_BLANKS = re.compile(r"\s{2,}")

#: Limits of a gold file (see the module docstring), each far above the real gold's maximum.
MAX_TRIPLES_PER_SENTENCE = 2_000  # real: 272
MAX_SYNSETS_PER_SENTENCE = 2_000  # real: 20
MAX_UNITS_PER_SLOT = 256  # real: 17
MAX_TRIPLES = 200_000  # per file; real: 8,150
MAX_SYNSETS = 200_000  # per file; real: 1,350
MAX_SENTENCES = 100_000  # per file; real: 300
MAX_DIAGNOSTICS = 10_000
#: Errors a :class:`Findings` keeps with their line (the rest are counted).
MAX_KEPT_ERRORS = 1_000


class Findings(Record):
    """What reading a gold file found wrong with it, as scoring keeps it beside the index.

    An error is a line the parser skipped or repaired (docs/formats.md): a gold with errors
    is scored as the parser understood it, not as it is written, which ``score`` must say
    (docs/gold-store.md, "Gold with errors"). Warnings are defects read harmlessly.
    ``validate`` runs further checks (tokens absent from the sentence, duplicate forms),
    which these counts do not include."""

    errors: int
    warnings: int
    #: The first ``MAX_KEPT_ERRORS`` errors as (line, code, message), in file order.
    first_errors: tuple[tuple[int, str, str], ...]


class GoldTriple(Record):
    """One acceptable triple line of a synset; its slots may hold optional units."""

    line: int
    slots: tuple[SlotPattern, SlotPattern, SlotPattern]


@dataclass(slots=True)
class Cluster:
    """A fact synset: every triple in it states the same fact."""

    line: int
    triples: list[GoldTriple] = field(default_factory=list)


@dataclass(slots=True)
class GoldSentence:
    sent_id: str
    text: str
    line: int
    clusters: list[Cluster] = field(default_factory=list)


@dataclass(slots=True)
class Gold:
    """A parsed gold file. ``sentences`` keeps file order, which reports follow."""

    path: str
    sentences: dict[str, GoldSentence]
    diagnostics: list[Diagnostic]
    #: Diagnostics beyond ``MAX_DIAGNOSTICS``, counted but not kept.
    diagnostics_omitted: int = 0
    #: Every error and warning, counted (kept or not).
    error_count: int = 0
    warning_count: int = 0

    def findings(self) -> Findings:
        """The summary scoring keeps (:class:`Findings`)."""
        kept = tuple(
            (d.line or 0, d.code, d.message) for d in self.diagnostics if d.severity == "error"
        )
        return Findings(self.error_count, self.warning_count, kept[:MAX_KEPT_ERRORS])

    @property
    def synset_count(self) -> int:
        return sum(len(s.clusters) for s in self.sentences.values())

    @property
    def triple_count(self) -> int:
        return sum(len(c.triples) for s in self.sentences.values() for c in s.clusters)


class _Parser:
    """Line-by-line state machine; see the module docstring for the leniency rules."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.sentences: dict[str, GoldSentence] = {}
        self.diagnostics: list[Diagnostic] = []
        self.sentence: GoldSentence | None = None
        self.cluster: Cluster | None = None
        self.skipping_duplicate = False
        self.sentence_triples = 0  # triple lines of the current sentence, for the limit
        self.triples = self.synsets = 0  # in the file, for the limits
        self.diagnostics_omitted = 0
        self.errors = self.warnings = 0
        # Slots repeat across the triples of a synset ("He", "served as"): parse each once.
        self.slot_cache: dict[str, tuple[SlotPattern, list[SlotIssue]]] = {}

    def report(self, line: int, severity: str, code: str, message: str) -> None:
        if severity == "error":
            self.errors += 1
        else:
            self.warnings += 1
        # Errors are kept first: warnings past the limit must not hide them (up to
        # MAX_KEPT_ERRORS errors are kept beyond it, so that Findings can name them).
        keep_error = severity == "error" and self.errors <= MAX_KEPT_ERRORS
        if len(self.diagnostics) < MAX_DIAGNOSTICS or keep_error:
            self.diagnostics.append(Diagnostic(self.path, line, severity, code, message))
        else:
            self.diagnostics_omitted += 1

    def refuse(self, n: int, what: str, limit: int, fix: str) -> BenchieError:
        """The error for a file beyond one of the module's limits."""
        return BenchieError(
            f"{what} more than {limit:,}, the limit; {fix}",
            path=self.path,
            line=n,
        )

    def close_cluster(self) -> None:
        if self.cluster is not None and not self.cluster.triples:
            self.report(self.cluster.line, "error", "empty-cluster", "fact synset has no triple")
        self.cluster = None

    def feed(self, n: int, line: str) -> None:
        if line.startswith(SENTENCE_PREFIX):
            self.sentence_line(n, line)
        elif not line.strip():
            if line:
                self.report(n, "warning", "whitespace", "line of only whitespace")
        elif self.skipping_duplicate:
            return
        elif line.count(ARROW) == 2:  # before the header test: most lines are triples
            self.triple(n, line)
        elif _HEADER.match(line):  # cannot hold " --> ": no space before its arrow
            self.header(n, line, malformed=False)
        elif "Cluster" in line:
            self.header(n, line, malformed=True)
        elif ARROW in line:  # a triple with a slot too many or too few (an n-ary fact)
            slots = line.count(ARROW) + 1
            self.report(
                n,
                "error",
                "stray-line",
                f"a triple has 3 slots separated by ' --> ', this line {slots}; ignored: "
                f"{quote(line)}",
            )
        else:
            self.report(
                n,
                "error",
                "stray-line",
                f"neither a sentence, a cluster header nor a triple; ignored: {quote(line)}",
            )

    def sentence_line(self, n: int, line: str) -> None:
        self.close_cluster()
        body = line[len(SENTENCE_PREFIX) :]
        sent_id, tab, text = body.partition("\t")
        if not tab:
            self.report(n, "error", "malformed-sentence", "no TAB between sentence id and text")
            sent_id, _, text = body.strip().partition(" ")
        sent_id = sent_id.strip()
        if not sent_id:
            self.report(n, "error", "malformed-sentence", "empty sentence id")
        if sent_id in self.sentences:
            first = self.sentences[sent_id].line
            self.report(
                n,
                "error",
                "duplicate-sentence-id",
                f"sentence id {quote(sent_id)} already used on line {first}; this block is ignored",
            )
            self.sentence, self.skipping_duplicate = None, True
            return
        self.skipping_duplicate = False
        if len(self.sentences) >= MAX_SENTENCES:
            raise self.refuse(n, "sentences:", MAX_SENTENCES, "split the file")
        self.sentence_triples = 0
        self.sentence = GoldSentence(sent_id, text, n)
        self.sentences[sent_id] = self.sentence

    def header(self, n: int, line: str, *, malformed: bool) -> None:
        if self.sentence is None:
            self.report(n, "error", "outside-sentence", "cluster header before any sentence line")
            return
        self.close_cluster()
        if malformed:
            self.report(
                n,
                "error",
                "malformed-header",
                f"malformed cluster header, read as one: {quote(line)} "
                f"(expected {quote(self.sentence.sent_id + '--> Cluster N:')})",
            )
        else:
            header_id = line.partition("-->")[0]
            if header_id != self.sentence.sent_id:
                self.report(
                    n,
                    "warning",
                    "header-id",
                    f"header names sentence {quote(header_id)} inside sentence "
                    f"{quote(self.sentence.sent_id)}",
                )
        self.synsets += 1
        if self.synsets > MAX_SYNSETS:
            raise self.refuse(n, "fact synsets:", MAX_SYNSETS, "split the file")
        if len(self.sentence.clusters) >= MAX_SYNSETS_PER_SENTENCE:
            raise self.refuse(
                n,
                f"fact synsets in sentence {quote(self.sentence.sent_id)} (line "
                f"{self.sentence.line}):",
                MAX_SYNSETS_PER_SENTENCE,
                "split it",
            )
        self.cluster = Cluster(n)
        self.sentence.clusters.append(self.cluster)

    def triple(self, n: int, line: str) -> None:
        if self.cluster is None:
            sentence = self.sentence
            if sentence is None:
                message = "triple before any sentence line; ignored"
            else:
                message = (
                    f"triple before any cluster header of sentence {quote(sentence.sent_id)}; "
                    f"ignored (a missing '{sentence.sent_id}--> Cluster "
                    f"{len(sentence.clusters) + 1}:' line?)"
                )
            self.report(n, "error", "outside-cluster", message)
            return
        self.sentence_triples += 1
        self.triples += 1
        if self.triples > MAX_TRIPLES:
            raise self.refuse(n, "triple lines:", MAX_TRIPLES, "split the file")
        if self.sentence_triples > MAX_TRIPLES_PER_SENTENCE:
            sentence = self.sentence
            assert sentence is not None  # a cluster belongs to a sentence
            raise self.refuse(
                n,
                f"triple lines in sentence {quote(sentence.sent_id)} (line {sentence.line}):",
                MAX_TRIPLES_PER_SENTENCE,
                "split it",
            )
        raw = line.split(ARROW)
        parsed: list[SlotPattern] = []
        # One cheap test per line; the per-slot check runs only on the few lines it flags.
        odd_space = " ".join(line.split()) != line
        for name, text in zip(("subject", "relation", "object"), raw, strict=True):
            if odd_space and (text != text.strip() or _BLANKS.search(text)):
                self.report(
                    n,
                    "warning",
                    "whitespace",
                    f"doubled or edge whitespace in the {name} {quote(text)} (around '-->' or "
                    f"inside); normalised to single spaces",
                )
            cached = self.slot_cache.get(text)
            if cached is None:
                cached = self.slot_cache[text] = parse_slot(text)
            pattern, issues = cached
            for issue in issues:
                severity = "warning" if issue.code == "bracket-spacing" else "error"
                self.report(n, severity, issue.code, f"{name}: {issue.message}")
            if not pattern.units:
                self.report(n, "error", "empty-slot", f"empty {name}")
            elif len(pattern.units) > MAX_UNITS_PER_SLOT:
                raise self.refuse(
                    n, f"{name}: units (bracketed or not)", MAX_UNITS_PER_SLOT, "shorten the slot"
                )
            parsed.append(pattern)
        self.cluster.triples.append(GoldTriple(n, (parsed[0], parsed[1], parsed[2])))


def parse_gold_lines(lines: list[str], path: str) -> Gold:
    """Parse gold text already split into lines (line ``i`` is numbered ``i + 1``)."""
    parser = _Parser(path)
    for n, line in enumerate(lines, 1):
        parser.feed(n, line)
    parser.close_cluster()
    if not parser.sentences:
        raise BenchieError(
            "no 'sent_id:' line: not a BenchIE gold file (another benchmark's gold, such as "
            "CaRB's tab-separated one, is scored with --benchmark NAME --gold-file FILE)",
            path=path,
        )
    return Gold(
        path,
        parser.sentences,
        parser.diagnostics,
        parser.diagnostics_omitted,
        parser.errors,
        parser.warnings,
    )


def parse_gold_bytes(data: bytes, path: str) -> Gold:
    """Parse a gold file's bytes (``path`` names it in diagnostics): the bytes that were
    hashed, so that a report's gold sha256 is always that of what was scored."""
    return parse_gold_lines(split_text_lines(data, path), path)


def load_gold(path: str) -> Gold:
    """Read (once) and parse a gold file; unusable bytes raise :class:`BenchieError`."""
    return parse_gold_bytes(read_whole(path, what="gold file"), display_name(path))
