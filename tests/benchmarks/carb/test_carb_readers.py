"""CaRB's readers of OLLIE's tab output (``ollie``) and ReVerb's output (``reverb``), and the
reader of OpenIE6's tagged lines (``allennlp``) of OpenIE6's copy of CaRB's scorer: what each
reads of a line (docs/carb.md, "OLLIE, ReVerb and OpenIE6's tagged lines"), a tiny gold whose
numbers are worked out by hand, the corner cases and real files scored by ``score
--benchmark carb`` with the numbers the original scorers compute (``perf/
bench_carb_readers.py`` ran them side by side), and the errors of lines the originals crash on.

The expected numbers of the original scorers are theirs, unrounded (``Benchmark.compare`` with
``numpy.round`` disabled): CaRB's ``carb.py`` at 024e0e9 (CaRB (s,m), ``--ollie`` and
``--reverb``) and OpenIE6's ``carb/carb.py`` at 1abe90e (CaRB (s,m) and, with
``--single_match``, (s,s); ``--allennlp`` too), whose (s,m) numbers are CaRB's. DetIE's
outputs have no licence, so they are not in this repository: the test that scores them reads
them from ``$BENCHIE_ORIGINALS_DIR/DetIE`` (a checkout of github.com/sberbank-ai/DetIE) and is
skipped without it.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchie_cli.benchmarks.carb import data as carb_data
from benchie_cli.benchmarks.carb import metric as carb_metric
from benchie_cli.benchmarks.carb.data import Extraction
from tests.conftest import DATA, GOLD_DIR, RunCli

CARB = DATA / "carb"
FIXTURES = CARB / "readers"
TEST_SENTENCES = GOLD_DIR / "carb" / "1.0.0" / "test" / "sentences.txt"
ORIGINALS = "BENCHIE_ORIGINALS_DIR"


def read(fmt: str, text: str, **kwargs: Any) -> carb_data.Extractions:
    lines = io.StringIO(text, newline=None)
    return carb_data.READERS[fmt](lines, f"<{fmt}>", **kwargs)


def numbers(cli: RunCli, fmt: str, path: Path, *args: str) -> dict[str, Any]:
    """``score --benchmark carb --metric carb,carb-ss``'s system object."""
    result = cli(
        "score", "--benchmark", "carb", "--metric", "carb,carb-ss", "--format", "json",
        "--input-format", fmt, *args, path,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    (system,) = orjson.loads(result.stdout)["systems"]
    out = {m: system[m] for m in ("carb", "carb-ss")}
    for m in out.values():  # the curve: as many points as said (tests/test_curves.py)
        assert len(m.pop("curve")["threshold"]) == m["points"]
    return out


def original(
    sm: tuple[float, tuple[float, float, float], int],
    ss: tuple[float, tuple[float, float, float], int],
) -> dict[str, Any]:
    """The report's numbers for an original's (AUC, optimum, points) of (s,m) and (s,s)."""
    return {
        m: {"precision": p, "recall": r, "f1": f1, "auc": auc, "points": points}
        for m, (auc, (p, r, f1), points) in (("carb", sm), ("carb-ss", ss))
    }


# --------------------------------------------------------------------------- what is read


def test_allennlp_reads_the_first_pair_of_each_tag_as_written() -> None:
    """Slots are the text inside the first pair of ``<arg1>``, ``<rel>``, ``<arg2>``,
    unstripped, inserted tokens kept; ``<arg3>`` and later tags are not read; a missing tag,
    or a closing tag before its opening one, gives an empty slot; columns after the third
    are ignored; a line is kept as often as it is given; the confidence is ``float`` of the
    third column, with no exp or log."""
    got = read(
        "allennlp",
        "S .\t<arg1> A </arg1> <rel> [is] </rel> <arg2> B </arg2> <arg3> C </arg3>\t-0.5\n"
        "S .\t<arg1> A </arg1> <rel> [is] </rel> <arg2> B </arg2> <arg3> C </arg3>\t-0.5\n"
        "S .\t<rel>r</rel> <arg2> x </arg2> <arg2> y </arg2>\t 1e-3 \tmore\n"
        "T .\t</arg1> A <arg1> <rel> r </rel>\t2\n",
    )
    assert got == {
        "S .": [
            Extraction(" [is] ", (" A ", " B "), -0.5),
            Extraction(" [is] ", (" A ", " B "), -0.5),
            Extraction("r", ("", " x "), 0.001),
        ],
        "T .": [Extraction(" r ", ("", ""), 2.0)],
    }


def test_allennlp_skips_a_line_without_slots_before_its_confidence() -> None:
    """A line whose three slots are all empty is skipped, its confidence not even read (so
    it sets no threshold); a slot of spaces is not empty."""
    got = read(
        "allennlp",
        "S .\tno tags\tnot a number\nS .\t<arg1></arg1><rel></rel>\t0.5\n"
        "S .\t<arg1> </arg1>\t0.25\n",
    )
    assert got == {"S .": [Extraction("", (" ", ""), 0.25)]}


def test_ollie_skips_its_first_line_and_keeps_empty_slots() -> None:
    """The first line is the header whatever it holds (here an extraction, lost as in
    CaRB); arguments are (arg1, arg2); enabler, attribution, pattern and dependencies are
    not read; an empty slot is an empty string; trailing empty columns may be missing."""
    got = read(
        "ollie",
        "0.9\tlost\tis\tlost\tNone\tNone\tS .\tp\td\n"
        "0.5\t\tis\tB\tSome(if)\tSome(he said)\tS .\tp\td\n"
        "1\tA\tis\t\t\t\tS .\n",
    )
    assert got == {"S .": [Extraction("is", ("", "B"), 0.5), Extraction("is", ("A", ""), 1.0)]}


def test_reverb_names_the_sentence_by_its_number() -> None:
    """The sentence is the raw sentences' line ``number - 1`` (Python's ``int``, so ``+2``
    and ``02`` are 2; 0 is the last line, as Python's indexing makes it); column 13 is not
    read; arguments are columns 3 and 5, the confidence column 12."""
    cols = "\t0\t1\t1\t2\t2\t3\t"
    got = read(
        "reverb",
        f"f\t+2\tA\tis\tB{cols}0.5\tnot read\n"
        f"f\t02\tC\tis\t{cols}0.25\n"
        f"f\t0\tD\tis\tE{cols}1\tx\tNN\tO\n",
        sentences=["one .", "two .", "three ."],
    )
    assert got == {
        "two .": [Extraction("is", ("A", "B"), 0.5), Extraction("is", ("C", ""), 0.25)],
        "three .": [Extraction("is", ("D", "E"), 1.0)],
    }


def test_reverb_needs_the_raw_sentences() -> None:
    with pytest.raises(ValueError, match="raw sentences"):
        read("reverb", "")


@pytest.mark.parametrize(
    "fmt, text, message",
    [
        ("allennlp", "S .\t<rel> r </rel>\n", "2 TAB-separated column(s), need 3"),
        ("allennlp", "S .\t<rel> r </rel>\t1\n\n", "1 TAB-separated column(s), need 3"),
        ("allennlp", "S .\t<rel> r </rel>\tone\n", "confidence 'one' is not a number"),
        ("allennlp", "S .\t<rel> r </rel>\tnan\n", "NaN"),
        ("ollie", "header\n0.5\tA\tis\tB\tNone\tNone\n", "6 TAB-separated column(s), need 7"),
        ("ollie", "header\n\n", "1 TAB-separated column(s), need 7"),
        ("ollie", "header\nx\tA\tis\tB\tNone\tNone\tS .\n", "confidence 'x' is not a number"),
        ("reverb", "f\t1\tA\tis\tB\t0\t1\t1\t2\t2\t3\n", "11 TAB-separated column(s), need 12"),
        ("reverb", "f\t4\tA\tis\tB\t0\t1\t1\t2\t2\t3\t1\n", "sentence number '4' is not one"),
        ("reverb", "f\tone\tA\tis\tB\t0\t1\t1\t2\t2\t3\t1\n", "sentence number 'one' is not"),
        ("reverb", "f\t1\tA\tis\tB\t0\t1\t1\t2\t2\t3\t?\n", "confidence '?' is not a number"),
    ],
)
def test_lines_the_originals_crash_on(fmt: str, text: str, message: str) -> None:
    """A line the original's reader crashes on is an error naming its line."""
    from benchie_cli.errors import BenchieError

    with pytest.raises(BenchieError, match=re.escape(message)) as raised:
        read(fmt, text, **({"sentences": ["one .", "two ."]} if fmt == "reverb" else {}))
    assert raised.value.line == text.count("\n")


def test_confidence_only_keeps_what_sets_a_threshold() -> None:
    """A sentence outside the gold is read as confidences only; a skipped allennlp line
    adds none."""
    got = read(
        "allennlp",
        "S .\t<rel> r </rel>\t0.5\nS .\tnothing\t0.7\n",
        confidence_only=lambda text: True,
    )
    assert got == {"S .": [Extraction("", (), 0.5)]}


# --------------------------------------------------------------------------- by hand

#: The tiny gold (tiny_gold.tsv): S1 "A CEN forms a part ." g1 (forms | A CEN | a part);
#: S2 "Bob is very tall ." g2 (is | Bob | tall), g3 (is | Bob | very tall).
#: Every tiny file reads as: p1 S1 (forms | A CEN | a part) 0.9; p2 S2 (is | "" | tall) 0.6;
#: p3 S2 (is | Bob | short) 0.3; a sentence outside the gold at 0.45 (allennlp: also a
#: line without tags at 0.99, which sets no threshold; reverb: the last numbered 0).
#: Pairs (precision, recall): p1-g1 (1, 1); p2-g2 (2/2, 2/3); p2-g3 (2/2, 2/4);
#: p3-g2 (2/3, 2/3); p3-g3 (2/3, 2/4). Three gold tuples.
#: 0.9: P 1, R 1/3.  0.6 and 0.45: P (1 + 1)/2; (s,m) R (1 + 2/3 + 1/2)/3 = 13/18, (s,s)
#: one pair in S2, the best recall p2-g2: R (1 + 2/3)/3 = 5/9.  0.3: precision matching
#: p2-g2 1 then p3-g3 2/3: P (1 + 5/3)/3 = 8/9; (s,m) R 13/18; (s,s) p2-g2 2/3 then p3-g3
#: 1/2: R 13/18.
#: AUC, trapezoids from recall 0 (precision 1): (s,m) 1/3 + 7/18 = 13/18; (s,s) 1/3 + 4/18 +
#: (3/18)(1 + 8/9)/2 = 77/108. Best F1: (s,m) 2(13/18)/(1 + 13/18) = 26/31 at P 1; (s,s)
#: 2(8/9)(13/18)/(8/9 + 13/18) = 208/261 at 0.3.
TINY = {
    "carb": ((1.0, 13 / 18, 26 / 31), 13 / 18),
    "carb-ss": ((8 / 9, 13 / 18, 208 / 261), 77 / 108),
}
#: The curve files the originals wrote (the same for every tiny file).
TINY_CURVES = {
    "carb": "1.0\t0.3333333333333333\t0.9\n0.8888888888888888\t0.7222222222222222\t0.3\n"
    "1.0\t0.7222222222222222\t0.45\n1.0\t0.7222222222222222\t0.6\n",
    "carb-ss": "1.0\t0.3333333333333333\t0.9\n1.0\t0.5555555555555555\t0.45\n"
    "1.0\t0.5555555555555555\t0.6\n0.8888888888888888\t0.7222222222222222\t0.3\n",
}


@pytest.mark.parametrize(
    "fmt, name",
    [("allennlp", "tiny.allennlp"), ("ollie", "tiny_ollie.txt"), ("reverb", "tiny_reverb.txt")],
)
@pytest.mark.parametrize("metric", list(TINY))
def test_tiny_gold_by_hand(fmt: str, name: str, metric: str) -> None:
    gold = carb_data.read_file(str(FIXTURES / "tiny_gold.tsv"), carb_data.read_gold)
    with carb_data.open_text(str(FIXTURES / "tiny_sentences.txt")) as fh:
        sentences = carb_data.read_sentences(fh)
    system = carb_data.read_system(str(FIXTURES / name), fmt, sentences=sentences)
    result = carb_metric.score(gold, system, single=metric == "carb-ss")
    (p, r, f1), auc = TINY[metric]
    assert result.optimal == pytest.approx((p, r, f1), abs=1e-15)
    assert result.auc == pytest.approx(auc, abs=1e-15)
    curve = io.StringIO()
    carb_metric.write_curve(result.curve, curve)
    assert curve.getvalue() == "Precision\tRecall\tConfidence\n" + TINY_CURVES[metric]


# --------------------------------------------------------------------------- the command

#: The originals' numbers for the corner-case files against CaRB's test gold:
#: ((s,m) AUC, optimum, points), ((s,s) ...).
CORNERS = {
    "allennlp": (
        "corners.allennlp",
        (
            0.0014747541076283901,
            (0.7222222222222222, 0.0020171103466521084, 0.004022984810447263),
            10,
        ),
        (
            0.0013793803992816376,
            (0.7222222222222222, 0.0019171128465896095, 0.003824074824448384),
            10,
        ),
    ),
    "ollie": (
        "corners_ollie.txt",
        (
            0.0024572083889307554,
            (0.8888888888888888, 0.0028837246240561156, 0.005748799050558779),
            9,
        ),
        (0.0017432797104555311, (0.8888888888888888, 0.00209081389126888, 0.004171814982730351), 9),
    ),
    "reverb": (
        "corners_reverb.txt",
        (
            0.0017977289403431989,
            (0.8518518518518519, 0.0024179883718395256, 0.004822288638373074),
            8,
        ),
        (
            0.0014830632788239402,
            (0.8518518518518519, 0.0019719894208032004, 0.003934869837880378),
            8,
        ),
    ),
}


@pytest.mark.parametrize("fmt", list(CORNERS))
def test_corner_cases_give_the_originals_numbers(cli: RunCli, fmt: str) -> None:
    """Duplicates, n-ary tags, a second ``<arg2>``, ``[is]``, missing and empty slots, a
    skipped line, negative and exponent confidences, OLLIE's ``1`` and ``0``, ReVerb's
    numbers ``01``, ``+2`` and ``0``, a line of another sentence: what CaRB's and OpenIE6's
    scorers compute, with ``--input-format`` and (ReVerb's corner file aside: 12 columns and
    ``+2``, which native detection does not take) with ``auto``."""
    name, sm, ss = CORNERS[fmt]
    assert numbers(cli, fmt, FIXTURES / name) == original(sm, ss)
    if fmt != "reverb":
        assert numbers(cli, "auto", FIXTURES / name) == original(sm, ss)


def test_one_confidence_for_every_line(cli: RunCli, tmp_path: Path) -> None:
    """Every line at 1.0: one curve point, its P, R and F1 the optimum, and an AUC of
    R * (P + 1) / 2."""
    flat = tmp_path / "flat.allennlp"
    lines = [
        ln.split("\t") for ln in (FIXTURES / "corners.allennlp").read_text("utf-8").splitlines()
    ]
    flat.write_text("".join("\t".join([*c[:2], "1.0", *c[3:]]) + "\n" for c in lines), "utf-8")
    for scores in numbers(cli, "allennlp", flat).values():
        assert scores["points"] == 1
        assert scores["auc"] == scores["recall"] * (scores["precision"] + 1) / 2


def test_the_said_notes(cli: RunCli, tmp_path: Path) -> None:
    """What the reader does silently is said: an allennlp line without slots, an OLLIE
    file whose first line is an extraction, ReVerb lines numbered for another input; each is
    an error under --strict."""

    def without(name: str, first: int = 0) -> Path:
        """The fixture without its first ``first`` lines and its sentence outside the split
        (which --strict also refuses)."""
        lines = (FIXTURES / name).read_text("utf-8").splitlines(True)[first:]
        path = tmp_path / name
        path.write_text("".join(ln for ln in lines if "Alice" not in ln), "utf-8")
        return path

    for fmt, path, said in (
        ("allennlp", without("corners.allennlp"), "1 of its 13 lines give no extraction"),
        ("ollie", without("corners_ollie.txt", 1), "its first line is an extraction"),
        ("reverb", FIXTURES / "corners_reverb.txt", "1 of its 8 lines name by number"),
    ):
        run = cli("score", "--benchmark", "carb", "--input-format", fmt, path)
        assert run.exit_code == 0 and said in run.stderr, run.stderr
        strict = cli("score", "--benchmark", "carb", "--strict", "--input-format", fmt, path)
        assert strict.exit_code == 1 and said in strict.stderr, strict.stderr


@pytest.mark.parametrize(
    "fmt, text, where, message",
    [
        ("allennlp", "S .\t<rel> r </rel>\n", 1, "need 3"),
        ("ollie", "header\n0.5\tA\tis\tB\n", 2, "need 7"),
        ("reverb", "f\t1\tA\tis\tB\t0\t1\t1\t2\t2\t3\tx\tS .\n", 1, "'x' is not a number"),
        ("reverb", "f\t642\tA\tis\tB\t0\t1\t1\t2\t2\t3\t1\tS .\n", 1, "not one of the 641"),
    ],
)
def test_a_malformed_line_is_one_error_line(
    cli: RunCli, tmp_path: Path, fmt: str, text: str, where: int, message: str
) -> None:
    """Exit 2, one line naming the file and line, no traceback, no score of 0.0."""
    path = tmp_path / "bad.txt"
    path.write_text(text, "utf-8")
    result = cli("score", "--benchmark", "carb", "--input-format", fmt, path)
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"benchie: {path}:{where}: error: ") and message in line, line


def test_auto_detection(tmp_path: Path) -> None:
    """OLLIE's tab header on the first line; OpenIE6's tags in every line's second column
    but one; anything else is left to native detection."""
    corners = (FIXTURES / "corners.allennlp").read_bytes()
    assert carb_data.detect(corners) == "allennlp"
    assert carb_data.detect(corners.replace(b"<rel>", b"", 2).replace(b"<arg", b"", 2)) is None
    assert carb_data.detect((FIXTURES / "corners_ollie.txt").read_bytes()) == "ollie"
    assert carb_data.detect(b"\n" + (FIXTURES / "corners_ollie.txt").read_bytes()) is None
    assert carb_data.detect((FIXTURES / "corners_reverb.txt").read_bytes()) is None
    assert carb_data.detect(b"") is None


def test_ollie_plain_output_is_read_by_benchies_reader(cli: RunCli, tmp_path: Path) -> None:
    """OLLIE's plain lines, which no CaRB reader reads, are met by sentence text: the numbers
    of the same extractions as CaRB tab lines."""
    sentence = "A CEN forms an important but small part of a Local Strategic Partnership ."
    plain = tmp_path / "ollie_plain.txt"
    plain.write_text(f"{sentence}\n0.886: (A CEN; forms; an important but small part)\n", "utf-8")
    tab = tmp_path / "same.carb"
    tab.write_text(f"{sentence}\t0.886\tforms\tA CEN\tan important but small part\n", "utf-8")
    ollie = cli("score", "--benchmark", "carb", "--format", "json", plain)
    carb = cli("score", "--benchmark", "carb", "--input-format", "carb", "--format", "json", tab)
    assert ollie.exit_code == 0, ollie.stderr
    assert (
        orjson.loads(ollie.stdout)["systems"][0]["carb"]
        == orjson.loads(carb.stdout)["systems"][0]["carb"]
    )


@pytest.mark.parametrize("fmt", ["allennlp", "reverb"])
def test_verify_rederives_the_report(cli: RunCli, tmp_path: Path, fmt: str) -> None:
    """The report records the format; ``verify`` reads the file with it again (ReVerb's
    numbers against the split's sentences)."""
    path = FIXTURES / CORNERS[fmt][0]
    out = tmp_path / "r.json"
    result = cli("score", "--benchmark", "carb", "--input-format", fmt, path, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert orjson.loads(out.read_bytes())["options"]["input_format"] == fmt
    verified = cli("verify", out, path)
    assert verified.exit_code == 0, verified.stderr


# --------------------------------------------------------------------------- real files

#: CaRB's ReVerb output (system_outputs/test/reverb_output.txt, gzipped): the originals'
#: numbers, and the sha256 of the curve file they wrote, with a raw sentences file rebuilt
#: from its own lines (its numbers are lines of another input: column 13 holds the text).
REVERB_WHOLE = {
    "carb": (
        0.20221119954002018,
        (0.7569229689067964, 0.24319414284164936, 0.3681153546080817),
        3602,
        "058010babb00238fa38d71acb75894ea296bfa26a6cb9b922ebfa7924d6af9e6",
    ),
    "carb-ss": (
        0.1295381538236114,
        (0.7518089750368439, 0.15664747433799733, 0.25927269756344046),
        3602,
        "5160f5d15878511027fff90e061dc9f782fee046bfdb11392a87999e1046846d",
    ),
}
#: Its lines of CaRB's test sentences, renumbered by the split's sentences.txt.
REVERB_TEST = original(
    (0.1991957513387535, (0.7621300010008403, 0.23821569950539856, 0.3629771812096332), 756),
    (0.12703715825698686, (0.7588202570738161, 0.15269636973626752, 0.25423364781179036), 756),
)


def reverb_lines() -> list[str]:
    with gzip.open(CARB / "reverb_output.txt.gz", "rt", encoding="utf-8") as fh:
        return fh.read().splitlines()


@pytest.mark.parametrize("metric", list(REVERB_WHOLE))
def test_carb_reverb_output_with_its_own_sentences(metric: str) -> None:
    own: dict[int, str] = {}
    for line in reverb_lines():
        cols = line.split("\t")
        own.setdefault(int(cols[1]), cols[12].strip())
    raw = [own.get(n, "") for n in range(1, max(own) + 1)]
    gold = carb_data.read_file(str(CARB / "gold_test.tsv.gz"), carb_data.read_gold)
    system = carb_data.read_system(
        str(CARB / "reverb_output.txt.gz"),
        "reverb",
        sentences=raw,
        confidence_only=carb_metric.outside(gold),
    )
    result = carb_metric.score(gold, system, single=metric == "carb-ss")
    auc, optimal, points, curve_sha = REVERB_WHOLE[metric]
    assert (result.auc, result.optimal, len(result.curve)) == (auc, optimal, points)
    out = io.StringIO()
    carb_metric.write_curve(result.curve, out)
    assert hashlib.sha256(out.getvalue().encode()).hexdigest() == curve_sha


def test_carb_reverb_output_against_the_split(cli: RunCli, tmp_path: Path) -> None:
    """As a CaRB submission its numbers name other sentences: line 913 names 642, beyond
    the split's 641, on which CaRB's reader crashes (an error); its lines of the split's
    sentences, renumbered, give the originals' numbers, format detected."""
    whole = tmp_path / "reverb_output.txt"
    whole.write_text("".join(ln + "\n" for ln in reverb_lines()), "utf-8")
    refused = cli("score", "--benchmark", "carb", whole)
    assert refused.exit_code == 2
    assert f"{whole}:913: error: sentence number '642' is not one of the 641" in refused.stderr
    number = {
        s.strip().replace(" ", ""): n
        for n, s in reversed(list(enumerate(TEST_SENTENCES.read_text("utf-8").splitlines(), 1)))
    }
    test = tmp_path / "reverb_test.txt"
    kept = []
    for line in reverb_lines():
        cols = line.split("\t")
        n = number.get(cols[12].replace(" ", ""))
        if n is not None:
            kept.append("\t".join([cols[0], str(n), *cols[2:]]) + "\n")
    test.write_text("".join(kept), "utf-8")
    assert numbers(cli, "reverb", test) == REVERB_TEST
    assert numbers(cli, "auto", test) == REVERB_TEST


#: DetIE's outputs on CaRB's test set (modules/model/evaluation/carb-openie6/
#: systems_output/ at a11a638): sha256, then the originals' (s,m) and (s,s) numbers (every
#: confidence is 1.0: one curve point). The *_output.txt files are OLLIE's tab layout and
#: read as the *.allennlp file of the same system. DETIE_SHA256 names each file without its
#: "_output".
DETIE = {
    "detie243": (
        (0.2716049664140877, (0.5634350321452398, 0.34744643791358537, 0.42983308223834554), 1),
        (0.18280091190975178, (0.5634350321452398, 0.23384522944829336, 0.3305151292918421), 1),
    ),
    "detie243conj": (
        (0.2673083476428717, (0.41749755659315024, 0.3771552852413057, 0.3963023895590384), 1),
        (0.22744568848470162, (0.41749755659315024, 0.3209115774863844, 0.3628877089935559), 1),
    ),
    "detie263": (
        (0.36679869898175005, (0.6047704292591934, 0.45713541612437925, 0.5206901968587612), 1),
        (0.24040288051295636, (0.6047704292591934, 0.2996103070318077, 0.400706133430516), 1),
    ),
    "detie263conj": (
        (0.3511458214673925, (0.467641796354698, 0.47851706368619656, 0.47301692918442145), 1),
        (0.29269647276338534, (0.467641796354698, 0.3988663630190684, 0.4305246996000747), 1),
    ),
    "detie276": (
        (0.37252076073426094, (0.6020300440860178, 0.4650608920968016, 0.5247549573858484), 1),
        (0.2498103630204089, (0.6020300440860178, 0.3118672635917131, 0.41088525126788666), 1),
    ),
    "detie276conj": (
        (0.35823207363044385, (0.45910704062522173, 0.49102918930052286, 0.4745318636633467), 1),
        (0.2988077596311689, (0.45910704062522173, 0.4095762014870834, 0.43292953900668035), 1),
    ),
}  # fmt: skip
DETIE_SHA256 = {
    "detie243.allennlp": "dd5f32d27f25426f6e841d2e8ee7ec4bce8035a85ccd40e33006a18587e75f32",
    "detie243.txt": "3296e01dd38a6012bcc2d1a67bf6328792b254418cbc65a7b399d1767412ba13",
    "detie243conj.allennlp": "72a6ab1b2a692fbafff9d8c15e42b5072d3cbe9f0f089064e2ff91235f7158d3",
    "detie243conj.txt": "7621f1639f6605bdec88bd227610050ecdc40bfe0a1329bb2a208954edc9d2d7",
    "detie263.allennlp": "dab95afa3d6412b2219e7ba4df1523252ab10bbb42ea09831dfa066ed913f2a8",
    "detie263.txt": "b86cfa396a5d0d02319077640c30f74e84e7d29fd6c1b4c2158edc1555e6ffc9",
    "detie263conj.allennlp": "9e9efe94ea91788c9e6c45711f99455870be2a1008ffabf806e8d5982e0923c7",
    "detie263conj.txt": "f8d02c6432cf3671ad822e78e9f6b367bee8183aa2a9499ecea010107e95400c",
    "detie276.allennlp": "a8f328a3a6a67ef67b57769de24f743f70b6de3917bd7b14fb9795be0a671a15",
    "detie276.txt": "10969dfca9307e508a8ad4b41b7789f9c6006c4d375354de0310f7beec24ce79",
    "detie276conj.allennlp": "546e7e473c64a9b5b6ce7da8c8eb9e52d2ae4ea2a556f9523053812c2ca2d598",
    "detie276conj.txt": "5313717846a0666d0fca9ee608c1e19c7de218beee9c60eeecf28a08d9795e45",
}


@pytest.mark.parametrize("name", sorted(DETIE_SHA256))
def test_detie_outputs(cli: RunCli, name: str) -> None:
    """DetIE's file ``<system>_output<.allennlp|.txt>``, with its format and detected."""
    root = os.environ.get(ORIGINALS)
    if not root:
        pytest.skip(
            f"${ORIGINALS} is not set: DetIE's outputs have no licence and are not in this "
            "repository; set it to a directory holding a DetIE checkout as DetIE/"
        )
    stem, suffix = name.split(".")
    outputs = Path(root) / "DetIE" / "modules/model/evaluation/carb-openie6/systems_output"
    path = outputs / f"{stem}_output.{suffix}"
    if not path.is_file():
        pytest.skip(f"{path} is missing: ${ORIGINALS}/DetIE is not a DetIE checkout")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == DETIE_SHA256[name], (
        f"{path} is not the file the expected numbers were computed for"
    )
    fmt = "allennlp" if name.endswith(".allennlp") else "ollie"
    expected = original(*DETIE[stem])
    for metric in expected.values():  # (one confidence for all: the report says so)
        metric["single_threshold"] = True
    assert numbers(cli, fmt, path) == expected
    assert numbers(cli, "auto", path) == expected


_PIECES = ["a", "b\tc", " ", "\t", "\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x85", "\u2028", "é"]


@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_text_lines_are_the_lines_text_mode_gives_the_readers(text: str) -> None:
    """The readers' lines, made by ``str.splitlines`` where that splits as universal
    newlines do (no other break in the text): the same lines, as every reader strips them,
    and the same count (error messages name lines by number)."""
    from benchie_cli.benchmarks.carb.data import text_lines

    mode = list(io.StringIO(text, newline=None))
    assert [line.strip() for line in text_lines(text)] == [line.strip() for line in mode]


def test_the_fast_lines_are_taken_only_without_other_breaks() -> None:
    from benchie_cli.benchmarks.carb.data import universal_lines

    assert universal_lines("a\tb\r\nc\rd\n")
    assert not any(universal_lines(f"a{c}b") for c in "\v\f\x1c\x1d\x1e\x85\u2028\u2029")
    # (where they differ: "a\x0cb" is one line in text mode, two for str.splitlines)
    assert len(list(io.StringIO("a\x0cb", newline=None))) == 1 != len("a\x0cb".splitlines())


@given(st.lists(st.sampled_from([*_PIECES, "\n\n", ""]), max_size=30).map("".join))
def test_split_lines_is_splitlines(text: str) -> None:
    """The split by LF alone gives exactly ``str.splitlines``'s lines (a final LF makes no
    empty line, an empty text none), and any other text is split by ``splitlines``."""
    from benchie_cli.benchmarks.carb.data import split_lines

    assert split_lines(text) == text.splitlines()
    assert split_lines(text + "\n") == (text + "\n").splitlines()
