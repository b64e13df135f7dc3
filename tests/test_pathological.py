"""Pathological gold in bounded memory and bounded output (issue 8).

Each class of file that cost gigabytes on 0.2.0 is generated here, and every command that
reads gold (``validate --kind gold``, ``score``, ``gold stats``) must run on it in bounded
memory or refuse it with one ``PATH:LINE: error`` line:

- thousands of lone ``[`` in one slot (each issue quoted the whole slot: quadratic output);
- 10^5 synsets in one sentence (bit sets as wide as the sentence, one per slot form);
- thousands of optional units in one slot, and 64 of them (a count orjson cannot write);
- a sentence listing more forms than the index's per-sentence budget.

The limits are the modules' named constants; the numbers asserted are worked out by hand in
the comments. Peak memory is measured in a fresh process (``RUSAGE_CHILDREN`` of a wrapper
that runs only the command), against the 300 MB target with no timing assertion.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest

from benchie_cli.benchmarks.benchie import report
from benchie_cli.benchmarks.benchie.matching import (
    FACETS,
    SENTENCE_FORM_BUDGET,
    CompiledGold,
    SentenceIndex,
    check_data,
)
from benchie_cli.errors import BenchieError
from benchie_cli.gold import check as gold_check
from benchie_cli.gold import stats as gold_stats
from benchie_cli.gold.parse import (
    MAX_SYNSETS_PER_SENTENCE,
    MAX_TRIPLES_PER_SENTENCE,
    MAX_UNITS_PER_SLOT,
    parse_gold_lines,
)
from benchie_cli.gold.stats import EXTRACTIONS_MAX, count_gold
from benchie_cli.slots import (
    EMPTY_BRACKETS,
    ISSUES_SHOWN,
    LONE_BRACKET,
    QUOTE_LIMIT,
    SlotPattern,
    Unit,
    parse_slot,
    quote,
)
from tests.conftest import RunCli

#: The peak resident memory a command may take on any file here (KiB, as Linux reports it).
PEAK_LIMIT_KIB = 300 * 1024

#: Longest message a bounded diagnostic can have: its words, the cut quote and the count.
MESSAGE_LIMIT = QUOTE_LIMIT + 200

#: Runs ``python -m benchie_cli ARGS`` as its only child, then appends the child's exit status
#: and peak RSS to stderr, so the measure is that of the command alone.
_MEASURED = """
import resource, subprocess, sys
code = subprocess.call([sys.executable, "-m", "benchie_cli", *sys.argv[1:]])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"\\n{code} {peak}", file=sys.stderr)
"""


@dataclass(frozen=True)
class Measured:
    code: int
    stdout: str
    stderr: str  # the command's own, without the measure
    peak_kib: int


def run_measured(*args: str | Path) -> Measured:
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, *map(str, args)],
        capture_output=True,
        text=True,
        check=True,
    )
    stderr, _, last = done.stderr.rstrip("\n").rpartition("\n")
    code, peak = map(int, last.split())
    return Measured(code, done.stdout, stderr.rstrip("\n"), peak)


linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="ru_maxrss is in KiB on Linux only"
)


def gold_text(clusters: list[list[str]], text: str = "x") -> str:
    """One sentence, ``1``, with one synset per list of triple lines."""
    lines = [f"sent_id:1\t{text}"]
    for n, triples in enumerate(clusters, 1):
        lines.append(f"1--> Cluster {n}:")
        lines.extend(triples)
    return "\n".join(lines) + "\n"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the files

# 20,000 lone '[' then the token: 40,001 characters in the subject, 40 KB in all.
LONE = gold_text([["[ " * 20000 + "x --> r --> o"]], "x r o")
# The most units a slot may have (255 optional, then b) in one subject (synset 1), 70
# optional units in another (synset 2).
UNITS = gold_text(
    [["[a] " * (MAX_UNITS_PER_SLOT - 1) + "b --> r --> o"], ["[a] " * 70 + "b --> r --> o"]],
    "a b r o",
)
# 2,000 synsets of one triple of 6 optional units a slot: 3 x 64 = 192 forms a triple.
SIX = "[a] [b] [c] [d] [e] [f]"
BUDGET_TRIPLES = 2000
BUDGET = gold_text(
    [[f"{SIX} s{i} --> {SIX} r --> {SIX} o{i}"] for i in range(BUDGET_TRIPLES)],
    " ".join(["a b c d e f r", *(f"s{i} o{i}" for i in range(BUDGET_TRIPLES))]),
)
# The budget holds the first 170 triples: 170 x 192 = 32,640 <= 32,768 < 171 x 192.
BUDGET_LISTED = 170


def test_budget_file_matches_the_budget() -> None:
    assert BUDGET_LISTED * 192 <= SENTENCE_FORM_BUDGET < (BUDGET_LISTED + 1) * 192


# --------------------------------------------------------------------------- slot issues


def test_quote_cuts_after_the_limit() -> None:
    assert quote("x" * QUOTE_LIMIT) == repr("x" * QUOTE_LIMIT)
    long = "x" * (QUOTE_LIMIT + 1)
    assert quote(long) == f"{'x' * QUOTE_LIMIT!r}… ({QUOTE_LIMIT + 1} characters)"


def test_lone_brackets_first_few_then_a_count() -> None:
    """20,000 lone '[' at columns 1, 3, 5, ...: three issues, then one for the 19,997 others."""
    pattern, issues = parse_slot("[ " * 20000 + "x")
    assert pattern == SlotPattern((Unit(("x",), False),))
    assert [i.code for i in issues] == [LONE_BRACKET] * (ISSUES_SHOWN + 1)
    assert ISSUES_SHOWN == 3
    for issue, column in zip(issues, (1, 3, 5), strict=False):
        assert issue.message.startswith(f"'[' at column {column} has no partner")
    assert issues[-1].message.startswith("19997 more brackets after column 5 have no partner")
    assert all("(40001 characters)" in i.message for i in issues)
    assert max(len(i.message) for i in issues) < MESSAGE_LIMIT


def test_brackets_touching_tokens_first_few_then_a_count() -> None:
    """``x[a]`` ten times: the '[' of each touches its x, at columns 2, 7, 12, ... 47."""
    pattern, issues = parse_slot(" ".join(["x[a]"] * 10))
    assert pattern.optional_count == 10
    assert [i.message.split(";")[0] for i in issues] == [
        "bracket at column 2 touches a token",
        "bracket at column 7 touches a token",
        "bracket at column 12 touches a token",
        "7 more brackets after column 12 touch a token",
    ]


def test_empty_groups_of_a_defective_slot_are_one_issue() -> None:
    """Two empty groups and a lone '[': one issue each kind, as on the well-formed path."""
    _, issues = parse_slot("[ ] [ ] [ x")
    assert [i.code for i in issues] == [LONE_BRACKET, EMPTY_BRACKETS]


def test_loader_quotes_long_lines_cut() -> None:
    """A 10,000-character stray line and slot with doubled spaces: messages stay short."""
    lines = ["sent_id:1\tx", "1--> Cluster 1:", "y" * 10000, "a  " + "b " * 5000 + "--> r --> o"]
    gold = parse_gold_lines(lines, "g.txt")
    assert [d.code for d in gold.diagnostics] == ["stray-line", "whitespace"]
    assert max(len(d.message) for d in gold.diagnostics) < MESSAGE_LIMIT


# --------------------------------------------------------------------------- triple limit


def test_sentence_at_the_limit_loads_and_one_more_is_refused() -> None:
    """Two sentences of exactly MAX_TRIPLES_PER_SENTENCE lines load (the count restarts at each
    sentence); one more line in the second is refused, naming its line and the sentence's."""
    block = ["1--> Cluster 1:", *["a --> r --> o"] * MAX_TRIPLES_PER_SENTENCE]
    lines = ["sent_id:1\tx", *block, "sent_id:2\tx", *block]
    assert parse_gold_lines(lines, "g.txt").triple_count == 2 * MAX_TRIPLES_PER_SENTENCE
    lines.append("a --> r --> o")
    with pytest.raises(BenchieError) as caught:
        parse_gold_lines(lines, "g.txt")
    second = MAX_TRIPLES_PER_SENTENCE + 3  # its sentence line
    assert (caught.value.path, caught.value.line) == ("g.txt", len(lines))
    assert str(caught.value) == (
        f"g.txt:{len(lines)}: error: triple lines in sentence '2' (line {second}): more than "
        f"{MAX_TRIPLES_PER_SENTENCE:,}, the limit; split it"
    )


def test_slot_of_too_many_units_is_refused() -> None:
    """A slot of MAX_UNITS_PER_SLOT units loads; one more unit is refused (16,000 optional
    units took 85 s to match one extraction on the first hardened version)."""
    ok = ["sent_id:1	x", "1--> Cluster 1:", "[a] " * (MAX_UNITS_PER_SLOT - 1) + "b --> r --> o"]
    assert parse_gold_lines(ok, "g.txt").triple_count == 1
    with pytest.raises(BenchieError) as caught:
        parse_gold_lines([*ok[:2], "[a] " * MAX_UNITS_PER_SLOT + "b --> r --> o"], "g.txt")
    assert str(caught.value) == (
        f"g.txt:3: error: subject: units (bracketed or not) more than {MAX_UNITS_PER_SLOT}, "
        "the limit; shorten the slot"
    )


# --------------------------------------------------------------------------- index budget


def test_index_lists_triples_up_to_the_budget(tmp_path: Path) -> None:
    """The first 170 triples of BUDGET are listed, the other 1,830 left to the DP, and a
    triple on either side is still found (the properties test covers correctness at large)."""
    gold = parse_gold_lines(BUDGET.splitlines(), "g.txt")
    index = SentenceIndex.build(gold.sentences["1"], "default")
    assert sorted(index.open_slots) == list(range(BUDGET_LISTED, BUDGET_TRIPLES))
    assert sum(v.bit_count() for m in index.maps for v in m.values()) == BUDGET_LISTED * 192
    assert max(v for m in index.maps for v in m.values()).bit_length() == BUDGET_LISTED
    assert index.match_slots("s5", "r", "o5") == 5  # listed
    assert index.match_slots("a s1999", "b r", "c f o1999") == 1999  # DP
    assert index.match_slots("s1", "r", "o2") == SentenceIndex.NO_MATCH
    for facet in FACETS:  # the on-disk cache accepts what the budget path builds
        check_data(CompiledGold.build(gold, facet).to_data(), facet)


# --------------------------------------------------------------------------- gold stats


def counts_of(clusters: list[list[str]], facet: str = "default") -> gold_stats.GoldCounts:
    return count_gold(parse_gold_lines(gold_text(clusters).splitlines(), "g.txt"), facet)


def test_count_beyond_json_integers_saturates() -> None:
    """64 optional units: 2**64 forms by multiplication, above 2**53 - 1: saturated."""
    counts = counts_of([["[a] " * 64 + "b --> r --> o"]])
    assert (counts.extractions, counts.exact, counts.saturated) == (EXTRACTIONS_MAX, False, True)
    assert EXTRACTIONS_MAX == 2**53 - 1
    doc = orjson.loads(orjson.dumps(counts.as_json()))
    assert doc["extractions"] == 2**53 - 1 and doc["saturated"] is True
    minimal = counts_of([["[a] " * 64 + "b --> r --> o"]], "minimal")
    assert (minimal.extractions, minimal.exact) == (1, True)
    assert "saturated" not in minimal.as_json()


def test_count_saturates_on_the_sum() -> None:
    """52 units: 2**52, which fits (exact: false, no key); two such synsets: 2**53, which not."""
    one = counts_of([["[a] " * 52 + "b --> r --> o"]])
    assert (one.extractions, one.exact, one.saturated) == (2**52, False, False)
    assert "saturated" not in one.as_json()
    two = counts_of([["[a] " * 52 + "b --> r --> o"]] * 2)
    assert (two.extractions, two.saturated) == (EXTRACTIONS_MAX, True)


def test_count_past_the_budget_multiplies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three copies of a 2-form triple in one synset: 2 distinct forms; with a budget of 2,
    the first is listed (2) and the other two counted by multiplication (2 + 2): 6."""
    synset = [["[a] b --> r --> o"] * 3]
    assert (counts_of(synset).extractions, counts_of(synset).exact) == (2, True)
    monkeypatch.setattr(gold_stats, "EXPAND_BUDGET", 2)
    assert (counts_of(synset).extractions, counts_of(synset).exact) == (6, False)


# --------------------------------------------------------------------------- validate


def test_duplicate_forms_of_one_line_first_few_then_a_count(tmp_path: Path) -> None:
    """Synsets 1-5 list ``xk s``; line 13's subject ``[x1] ... [x5] s`` has a form of each."""
    clusters = [[f"x{k} s --> r --> o"] for k in range(1, 6)]
    clusters.append(["[x1] [x2] [x3] [x4] [x5] s --> r --> o"])
    path = write(tmp_path / "g.txt", gold_text(clusters, "x1 x2 x3 x4 x5 s r o"))
    found = gold_check.validate_gold(str(path), "en").diagnostics
    assert [(d.line, d.code) for d in found] == [(13, "duplicate-form")] * 4
    assert found[-1].message.startswith("forms of this line are also listed in 2 more earlier")


def test_duplicate_check_stops_at_its_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two 2-form triples fill a budget of 4; the check stops at the third (line 5)."""
    monkeypatch.setattr(gold_check, "DUPLICATE_CHECK_BUDGET", 4)
    synset = ["[a] s --> r --> o", "[b] s --> r --> o", "s --> r --> o", "a s --> r --> o"]
    path = write(tmp_path / "g.txt", gold_text([synset], "a b s r o"))
    found = gold_check.validate_gold(str(path), "en").diagnostics
    assert [(d.line, d.severity, d.code) for d in found] == [(5, "warning", "check-limit")]


# --------------------------------------------------------------------------- report


@pytest.mark.parametrize(
    ("ids", "kept", "omitted"),
    [
        ("u0 u1 u0 u2 u3 u4", [("u0", 2), ("u1", 1), ("u2", 1)], 2),
        ("u0 u1 u0 u2", [("u0", 2), ("u1", 1), ("u2", 1)], None),
    ],
    ids=["omitted", "all-kept"],
)
def test_report_keeps_the_first_unknown_ids(
    cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ids: str,
    kept: list[tuple[str, int]],
    omitted: int | None,
) -> None:
    """With 3 kept: the first 3 distinct ids in order of appearance, then the count of the
    others right after them; no such key when none was left out."""
    monkeypatch.setattr(report, "UNKNOWN_IDS_KEPT", 3)
    # (One line of a gold sentence: a file of unknown ids only is an error, not a 0.0.)
    unknown = "".join(f"{i}\ta\tb\tc\n" for i in ids.split())
    sub = write(tmp_path / "s.tsv", unknown + "1\tHe\tserved as\tthe first Prime Minister\n")
    res = cli("score", "--lang", "en", "--format", "json", sub)
    assert res.exit_code == 0, res.stderr
    (system,) = orjson.loads(res.stdout)["systems"]
    assert system["unknown_sentence_ids"] == len(ids.split())
    assert system["unknown_ids"] == [{"sent_id": s, "extractions": n} for s, n in kept]
    keys = list(system)
    if omitted is None:
        assert "unknown_ids_omitted" not in keys
    else:
        assert keys[keys.index("unknown_ids") + 1] == "unknown_ids_omitted"
        assert system["unknown_ids_omitted"] == omitted


# --------------------------------------------------------------------------- whole commands


@linux_only
def test_sentence_of_too_many_synsets_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """10^5 synsets of one triple each (5.6 MB, 1.4 GiB on 0.2.0): the header of synset 2,001
    is on line 2 x 2,000 + 2 = 4,002; score refuses with that one line (exit 2), validate
    reports it as its one error (exit 1), and no store can hold it (``gold manifest`` exits 2)."""
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(tmp_path / "cache"))
    store = tmp_path / "store" / "9.0.0"
    (store / "en" / "default").mkdir(parents=True)
    text = gold_text([[f"s{i} --> rel --> o{i}"] for i in range(1, 100_001)])
    gold = write(store / "en" / "default" / "g.txt", text)
    sub = write(tmp_path / "s.tsv", "1\ts1\trel\to1\n")
    where = f"{gold}:{2 * MAX_SYNSETS_PER_SENTENCE + 2}: error: fact synsets in sentence '1'"
    scored = run_measured("score", "--gold-file", gold, "--lang", "en", sub)
    assert scored.code == 2
    assert scored.stderr.startswith(f"benchie: {where}") and "\n" not in scored.stderr
    checked = run_measured("validate", "--kind", "gold", "--lang", "en", gold)
    assert checked.code == 1
    assert checked.stdout.startswith(where) and checked.stdout.count("\n") == 1
    stored = run_measured("gold", "manifest", store)
    assert stored.code == 2 and where in stored.stderr
    assert max(r.peak_kib for r in (scored, checked, stored)) < PEAK_LIMIT_KIB


@linux_only
@pytest.mark.parametrize(
    ("text", "sub", "errors", "score"),
    [
        # 3 lone-bracket issues and their count, quoted cut. Subject "x": (x, r, o) is a TP.
        (LONE, "1\tx\tr\to\n1\ty\tr\to\n", 4, (1, 1, 0)),
        # "a a b" and "b" are forms of synset 1 (and of 2, which the first one wins); x is FP.
        (UNITS, "1\ta a b\tr\to\n1\tb\tr\to\n1\tx\tr\to\n", 0, (1, 1, 1)),
        # Triple 5 is listed, 1999 left to the DP; (s1, r, o2) is no form: 2 TP, 1 FP.
        (BUDGET, "1\ts5\tr\to5\n1\ta s1999\tb r\tc f o1999\n1\ts1\tr\to2\n", 0, (2, 1, 1998)),
    ],
    ids=["lone-brackets", "optional-units", "form-budget"],
)
def test_commands_on_pathological_gold_stay_bounded(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    sub: str,
    errors: int,
    score: tuple[int, int, int],
) -> None:
    """validate, score (default and concat, cold cache) and gold stats, each in bounded
    memory, with bounded validate output and the scores worked out by hand."""
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(tmp_path / "cache"))
    store = tmp_path / "store" / "9.0.0"
    (store / "en" / "default").mkdir(parents=True)
    gold = write(store / "en" / "default" / "g.txt", text)
    submission = write(tmp_path / "s.tsv", sub)
    runs = [run_measured("gold", "manifest", store)]
    checked = run_measured("validate", "--kind", "gold", "--lang", "en", gold)
    assert checked.code == (1 if errors else 0), checked.stderr
    assert checked.stderr.endswith(f"{errors} error(s), 0 warning(s) in 1 file(s)")
    assert len(checked.stdout) < errors * (MESSAGE_LIMIT + len(str(gold)) + 40) + 1
    runs.append(checked)
    for facet in ("default", "concat"):
        scored = run_measured(
            *("score", "--gold-file", gold, "--lang", "en", "--keep-implicit"),
            *("--facet", facet, "--format", "json", submission),
        )
        assert scored.code == 0, scored.stderr
        (system,) = orjson.loads(scored.stdout)["systems"]
        assert (system["tp"], system["fp"], system["fn"]) == score
        runs.append(scored)
    stats = run_measured("gold", "stats", "--gold-dir", store.parent, "--gold-version", "9.0.0")
    assert stats.code == 0, stats.stderr
    runs.append(stats)
    assert all(r.code == 0 for r in (runs[0], stats))
    assert max(r.peak_kib for r in runs) < PEAK_LIMIT_KIB, [r.peak_kib for r in runs]
