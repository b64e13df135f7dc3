"""DocOIE (docs/docoie.md): its four published gold files added by sha256, each a split of its
own, and scored as DocOIE's ``carb.py`` scores: CaRB's (s,m) with its own gold reader (``L:``
and ``T:`` deleted from arguments) and its own printout (3 decimals, a Zero Conf point).

The published files have no licence to be shipped: hand-made stand-ins take their place,
their sha256 and counts put in the registry's entries for the test. The real files are
checked by ``test_benchmark_add.py::test_the_published_files`` when they are at hand, and
the numbers against DocOIE's own code by ``perf/bench_docoie.py``.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import orjson
import pytest

from benchie_cli.benchmarks.carb import data as carb_data
from benchie_cli.benchmarks.carb import metric as carb
from benchie_cli.benchmarks.carb.data import Extraction
from benchie_cli.benchmarks.docoie import metric
from benchie_cli.registry import BENCHMARKS
from tests.conftest import RunCli

#: The healthcare split's stand-in, in the layout of DocOIE's extractions.tsv: a triple
#: without an object ends in a TAB. The sentence "A sensor reads glucose ." lost its
#: reference numeral, as DocOIE's cleaning of the TSV's sentences did.
HEALTHCARE_TSV = (
    "The pump delivers insulin .\tdelivers\tThe pump\tinsulin\n"
    "The pump delivers insulin .\tis controlled by\tThe pump\tthe patient\n"
    "A sensor reads glucose .\treads\tA sensor\tglucose\n"
    "A sensor reads glucose .\tis\tA sensor\t\n"
)
#: The same triples as the released JSON gold holds them, the numeral kept.
HEALTHCARE_JSON = {
    "1. An insulin pump.txt": {
        "The pump delivers insulin .": {
            "triple_gold": [
                {"sub": "The pump", "rel": "delivers", "obj": "insulin"},
                {"sub": "The pump", "rel": "is controlled by", "obj": "the patient"},
            ]
        },
        "A sensor 12 reads glucose .": {
            "triple_gold": [
                {"sub": "A sensor 12", "rel": "reads", "obj": "glucose"},
                {"sub": "A sensor 12", "rel": "is", "obj": ""},
            ]
        },
    }
}
TRANSPORTATION_TSV = "Trains stop at stations .\tstop at\tTrains\tstations\n"
TRANSPORTATION_JSON = {
    "2. A timetable.txt": {
        "Trains stop at stations .": {
            "triple_gold": [
                {"sub": "Trains", "rel": "stop at", "obj": "stations"},
                {"sub": "Trains", "rel": "stop", "obj": ""},
            ]
        }
    }
}

#: split -> (the stand-in's bytes, sentences, tuples)
STAND_INS: dict[str, tuple[bytes, int, int]] = {
    "healthcare": (HEALTHCARE_TSV.encode(), 2, 4),
    "transportation": (TRANSPORTATION_TSV.encode(), 1, 1),
    "healthcare-json": (json.dumps(HEALTHCARE_JSON).encode(), 2, 4),
    "transportation-json": (json.dumps(TRANSPORTATION_JSON).encode(), 1, 2),
}


def pin_stand_ins(directory: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Each stand-in written under its published name in a directory named by its split
    (the two extractions.tsv share a name), and pinned in the registry in place of the
    published file: sha256, size and counts (the manifest's pin is computed from them)."""
    entry = BENCHMARKS["docoie"]
    published, paths = [], []
    for p in entry.published:
        data, sentences, tuples = STAND_INS[p.split]
        path = directory / p.split / p.file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        paths.append(path)
        sha = hashlib.sha256(data).hexdigest()
        published.append(p._replace(sha256=sha, size=len(data), sentences=sentences, tuples=tuples))
    monkeypatch.setitem(BENCHMARKS, "docoie", entry._replace(published=tuple(published)))
    return paths


def add_stand_ins(cli: RunCli, root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every stand-in added to the gold directory ``root`` in one command, as a user adds
    the four downloads."""
    paths = pin_stand_ins(tmp_path / "download", monkeypatch)
    added = cli("benchmark", "add", "docoie", *paths, "--gold-dir", root)
    assert added.exit_code == 0, added.stderr


def _lines(text: str) -> carb_data.Extractions:
    return metric.read_gold(io.StringIO(text), "gold.tsv")


# --------------------------------------------------------------------------- the gold


def test_l_and_t_are_deleted_anywhere_in_an_argument_l_first() -> None:
    gold = _lines(
        "S .\tmoved\tAnn\tL:to Paris\tT:in 2010\n"
        "S .\tvisited\tBob\tthe URL: example T:page\n"  # URL: loses its L:
        "S .\tsold\tSALT:now\tTL::\n"  # LT: loses T:; L: first leaves T:, then gone
        "S .\tsaid\tC: context\t T: x \n"  # C: drops the argument; stripped after
        "S .\tis\tL:C: here\n"  # the C: test reads the argument as given
    )
    assert [e.args for e in gold["S ."]] == [
        ("Ann", "to Paris", "in 2010"),
        ("Bob", "the UR example page"),
        ("SALnow", ""),
        ("x",),
        (),
    ]
    # CaRB's reader keeps them
    carbs = carb_data.read_gold(io.StringIO("S .\tmoved\tAnn\tL:to Paris\tT:in 2010\n"))
    assert carbs["S ."][0].args == ("Ann", "L:to Paris", "T:in 2010")


def test_an_empty_object_is_no_argument_and_sentence_and_relation_are_stripped() -> None:
    gold = _lines(" A sensor reads .\t is \tA sensor\t\n")
    assert gold == {"A sensor reads .": [Extraction("is", ("A sensor",), 1.0)]}


def test_a_line_without_a_relation_is_an_error_naming_it() -> None:
    with pytest.raises(metric.DocoieError, match=r"^gold.tsv:2: need sentence<TAB>relation"):
        _lines("S .\tr\ta\n\n")


def test_the_json_gold_becomes_the_lines_of_the_tsv() -> None:
    text = json.dumps(HEALTHCARE_JSON)
    assert metric.json_lines("g.json", text) == [
        "The pump delivers insulin .\tdelivers\tThe pump\tinsulin\n",
        "The pump delivers insulin .\tis controlled by\tThe pump\tthe patient\n",
        "A sensor 12 reads glucose .\treads\tA sensor 12\tglucose\n",
        "A sensor 12 reads glucose .\tis\tA sensor 12\t\n",
    ]
    from_json = metric.read_gold_json("g.json", text)
    from_tsv = _lines(HEALTHCARE_TSV.replace("A sensor", "A sensor 12"))
    assert from_json == from_tsv


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ("[]", r"g.json: \$: must be an object"),
        ('{"d": []}', r'g.json: \$\["d"\]: must be an object'),
        ('{"d": {"s": {"triples": []}}}', r'g.json: \$\["d"\]\["s"\]: must be an object'),
        (
            '{"d": {"s": {"triple_gold": [{"sub": "a", "rel": "b"}]}}}',
            r"""\$\["d"\]\["s"\]\["triple_gold"\]\[0\]\['obj'\]: missing""",
        ),
        (
            '{"d": {"s": {"triple_gold": [{"sub": "a\\tb", "rel": "b", "obj": ""}]}}}',
            r"\['sub'\]: holds a TAB or a line break",
        ),
        ('{"d": {"s\\n": {"triple_gold": []}}}', r"the sentence holds a TAB or a line break"),
        ('{"d": \n{', r"^g.json:2: not JSON"),
    ],
)
def test_json_the_conversion_cannot_hold_is_refused(doc: str, message: str) -> None:
    with pytest.raises(metric.DocoieError, match=message):
        metric.read_gold_json("g.json", doc)


# --------------------------------------------------------------------------- the numbers


def _tagged(sentence: str, arg1: str, rel: str, arg2: str, confidence: float) -> str:
    tagged = f"<arg1> {arg1} </arg1> <rel> {rel} </rel> <arg2> {arg2} </arg2>"
    return f"{sentence}\t{tagged}\t{confidence}\n"


SYSTEM = (
    _tagged("The pump delivers insulin .", "The pump", "delivers", "insulin", -0.1)
    + _tagged("The pump delivers insulin .", "the pump", "is controlled", "by the patient", -0.4)
    + _tagged("The pump delivers insulin .", "The pump", "delivers", "insulin", -0.4)
    + _tagged("A sensor reads glucose .", "A sensor", "be", "glucose", -0.3)
    + _tagged("A sensor reads glucose .", "glucose", "reads", "A sensor", -0.2)
    + _tagged("Another sentence .", "it", "is", "elsewhere", 0.5)
)


def test_the_numbers_are_carb_s_on_the_same_tuples() -> None:
    """Without L: or T: in the gold, DocOIE's scorer is CaRB's (s,m): the same exact values,
    the same 3-decimal AUC and optimum, and OpenIE6's Zero Conf point."""
    gold = _lines(HEALTHCARE_TSV)
    predicted = carb_data.read_allennlp(io.StringIO(SYSTEM))
    ours = metric.to_json(metric.score(gold, predicted))
    theirs = carb.to_json(carb.score(carb_data.read_gold(io.StringIO(HEALTHCARE_TSV)), predicted))
    openie6 = carb.to_json(carb.score(gold, predicted), openie6=True)
    for key in ("auc", "precision", "recall", "f1", "points"):
        assert ours[key] == theirs[key], key
    assert ours["zero_conf"] == openie6["zero_conf"]
    printed = ours["docoie"]
    assert isinstance(printed, dict) and isinstance(theirs["carb"], dict)
    assert printed["auc"] == theirs["carb"]["auc"]
    assert printed["optimal"] == theirs["carb"]["optimal"]


def test_l_and_t_change_the_numbers_as_worked_by_hand() -> None:
    """(moved, Ann, to Paris in 2010) against the gold (moved, Ann, L:to Paris, T:in 2010):
    DocOIE's reader deletes the markers, every word matches, 6 of 6 (P = R = 1, AUC 1);
    CaRB's keeps "L:to" and "T:in", 4 of 6 words match (P = R = 2/3, AUC (2/3)(1 + 2/3)/2)."""
    text = "Ann moved to Paris in 2010 .\tmoved\tAnn\tL:to Paris\tT:in 2010\n"
    system = _tagged("Ann moved to Paris in 2010 .", "Ann", "moved", "to Paris in 2010", 1.0)
    predicted = carb_data.read_allennlp(io.StringIO(system))
    ours = metric.score(_lines(text), predicted)
    theirs = carb.score(carb_data.read_gold(io.StringIO(text)), predicted)
    assert ours.optimal == (1.0, 1.0, 1.0) and ours.auc == 1.0
    assert theirs.optimal == pytest.approx((2 / 3, 2 / 3, 2 / 3), rel=1e-15)
    assert theirs.auc == pytest.approx(5 / 9, rel=1e-15)
    assert metric.printed(ours) == (
        "AUC: 1.0\t Optimal (precision, recall, F1): (1.0, 1.0, 1.0)"
        "\tZero Conf (precision, recall, F1): (1.0, 1.0, 1.0)"
    )


GOLD = {"A b c .": [Extraction("r", ("A", "b"), 1.0)]}
#: Scored against (r, A, b c d e) instead of GOLD.
ROUNDED = {"A b c .": [Extraction("r", ("A", "b c"), 0.5)]}


@pytest.mark.parametrize(
    ("predicted", "line"),
    [
        # a point without predictions (the outside sentence's threshold) has the integer
        # precision 1 and is the optimum (F1 0.0); at the lowest, P = R = 0: F1 NaN
        (
            {
                "A b c .": [Extraction("x", ("y", "z"), 0.0)],
                "Elsewhere .": [Extraction("r", ("A", "b"), 1.0)],
            },
            "AUC: 0.0\t Optimal (precision, recall, F1): (1, 0.0, 0.0)"
            "\tZero Conf (precision, recall, F1): (0.0, 0.0, nan)",
        ),
        # every F1 NaN: no optimum, both points zeros, the AUC still computed
        (
            {"A b c .": [Extraction("x", ("y", "z"), 0.0)]},
            "AUC: 0.0\t Optimal (precision, recall, F1): (0, 0, 0)"
            "\tZero Conf (precision, recall, F1): (0, 0, 0)",
        ),
        # no prediction at all: no threshold, an AUC of 0
        (
            {},
            "AUC: 0\t Optimal (precision, recall, F1): (0, 0, 0)"
            "\tZero Conf (precision, recall, F1): (0, 0, 0)",
        ),
        # 3 decimals, each printed as the shortest float: (r, A, b c) meets 4 of the 6 words
        # of (r, A, b c d e) with all of its own 4: P 1, R 2/3, F1 0.8, AUC 2/3
        (
            ROUNDED,
            "AUC: 0.667\t Optimal (precision, recall, F1): (1.0, 0.667, 0.8)"
            "\tZero Conf (precision, recall, F1): (1.0, 0.667, 0.8)",
        ),
    ],
    ids=["precision-1-point", "all-nan", "nothing", "rounding"],
)
def test_what_docoie_prints_as_worked_by_hand(predicted: carb_data.Extractions, line: str) -> None:
    gold = (
        GOLD if predicted is not ROUNDED else {"A b c .": [Extraction("r", ("A", "b c d e"), 1.0)]}
    )
    assert metric.printed(metric.score(gold, predicted)) == line


# --------------------------------------------------------------------------- add and score


def test_added_scored_and_verified_each_gold_naming_it(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "gold"
    root.mkdir()
    system = tmp_path / "docie.txt"
    system.write_text(
        _tagged("The pump delivers insulin .", "The pump", "delivers", "insulin", -0.1)
        + _tagged("A sensor reads glucose .", "A sensor", "reads", "glucose", -0.2)
    )
    paths = pin_stand_ins(tmp_path / "download", monkeypatch)
    absent = cli("score", "--benchmark", "docoie", "--gold-dir", root, system)
    assert absent.exit_code == 2
    assert "the DocOIE (en, healthcare) benchmark is not in the gold store" in absent.stderr
    assert "data/test/healthcare/extractions.tsv" in absent.stderr
    assert "`benchie benchmark add docoie extractions.tsv`" in absent.stderr

    added = cli("benchmark", "add", "docoie", *paths, "--gold-dir", root)
    assert added.exit_code == 0, added.stderr
    assert "added DocOIE (en, healthcare) 1.0.0" in added.stderr
    assert "added DocOIE (en, transportation-json) 1.0.0" in added.stderr
    tsv = root / "docoie" / "healthcare" / "1.0.0" / "healthcare" / "extractions.tsv"
    assert tsv.read_text() == HEALTHCARE_TSV
    assert (root / "docoie" / "healthcare" / ".gitignore").read_text() == "*\n"

    # Hand-worked: both predictions match their gold tuple exactly; "is controlled by" and
    # "is" (no object) get nothing. TSV: at -0.2, P 2/2, R 2/4; at -0.1, P 1/1, R 1/4. The
    # JSON's "A sensor 12 ..." is another sentence: the second prediction only adds a
    # threshold, so R = 1/4 at both.
    expected = {
        "healthcare": (
            "AUC: 0.5\t Optimal (precision, recall, F1): (1.0, 0.5, 0.667)"
            "\tZero Conf (precision, recall, F1): (1.0, 0.5, 0.667)",
            "docoie/healthcare/1.0.0/healthcare/extractions.tsv",
            "",
        ),
        "healthcare-json": (
            "AUC: 0.25\t Optimal (precision, recall, F1): (1.0, 0.25, 0.4)"
            "\tZero Conf (precision, recall, F1): (1.0, 0.25, 0.4)",
            "docoie/healthcare-json/1.0.0/healthcare-json/DocOIE_healthcare_eval_gold.json",
            "1 of its sentences are not in docoie's healthcare-json split",
        ),
    }
    for split, (line, path, warning) in expected.items():
        out = tmp_path / f"{split}.json"
        scored = cli(
            "score",
            "--benchmark",
            "docoie",
            "--split",
            split,
            "--gold-dir",
            root,
            system,
            "-o",
            out,
        )
        assert scored.exit_code == 0, scored.stderr
        assert warning in scored.stderr
        report = orjson.loads(out.read_bytes())
        numbers = report["systems"][0]["docoie"]
        assert numbers["docoie"]["printed"] == line
        assert report["gold"]["split"] == split
        assert report["gold"]["files"][0]["path"] == path
        assert f"|split:{split}|metric:docoie|gold:1.0.0@" in report["signature"]
        verified = cli("verify", out, system, "--gold-dir", root)
        assert verified.exit_code == 0, verified.stderr

    # The curve, in the report (ascending confidence) and as DocOIE's carb.py --out writes it
    curves = tmp_path / "curves"
    curves.mkdir()
    exported = cli(
        "score", "--benchmark", "docoie", "--gold-dir", root, "--format", "json",
        f"docie={system}", "--curves", curves,
    )  # fmt: skip
    assert exported.exit_code == 0, exported.stderr
    curve = orjson.loads(exported.stdout)["systems"][0]["docoie"]["curve"]
    assert curve == {"threshold": [-0.2, -0.1], "precision": [1.0, 1.0], "recall": [0.5, 0.25]}
    assert (curves / "docie.dat").read_text() == (
        "Precision\tRecall\tConfidence\n1.0\t0.25\t-0.1\n1.0\t0.5\t-0.2\n"
    )


def test_a_file_that_is_none_of_the_published_ones_names_their_sha256(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = pin_stand_ins(tmp_path / "download", monkeypatch)
    root = tmp_path / "gold"
    root.mkdir()
    wrong = tmp_path / "extractions.tsv"
    wrong.write_bytes(paths[0].read_bytes() + b"\n")
    refused = cli("benchmark", "add", "docoie", wrong, "--gold-dir", root)
    assert refused.exit_code == 1
    health, transport = BENCHMARKS["docoie"].published[:2]
    assert (
        f"is not that of any of DocOIE's published files (extractions.tsv {health.sha256}, "
        f"extractions.tsv {transport.sha256})" in refused.stderr
    )
    json_gold = tmp_path / "DocOIE_healthcare_eval_gold.json"
    json_gold.write_bytes(b"{}")
    refused = cli("benchmark", "add", "docoie", json_gold, "--gold-dir", root)
    assert refused.exit_code == 1
    expected = BENCHMARKS["docoie"].published[2].sha256
    assert f"the published DocOIE_healthcare_eval_gold.json ({expected}, from " in refused.stderr
    assert not any(root.iterdir())


def test_real_pins_refuse_a_stand_in(cli: RunCli, tmp_path: Path) -> None:
    src = tmp_path / "extractions.tsv"
    src.write_text(HEALTHCARE_TSV)
    root = tmp_path / "gold"
    root.mkdir()
    refused = cli("benchmark", "add", "docoie", src, "--gold-dir", root)
    assert refused.exit_code == 1
    assert "dbe247753aa218184975802f1ad44f4d1f47199fbddc21bebd1b85afe8ec4881" in refused.stderr


def test_a_gold_file_of_either_format_is_read_by_its_name(cli: RunCli, tmp_path: Path) -> None:
    system = tmp_path / "s.txt"
    system.write_text(_tagged("Trains stop at stations .", "Trains", "stop at", "stations", 0.9))
    tsv = tmp_path / "mine.tsv"
    tsv.write_text(TRANSPORTATION_TSV)
    as_json = tmp_path / "mine.json"
    as_json.write_text(json.dumps(TRANSPORTATION_JSON))
    recalls = []
    for gold in (tsv, as_json):
        out = tmp_path / f"{gold.name}.report.json"
        scored = cli("score", "--benchmark", "docoie", "--gold-file", gold, system, "-o", out)
        assert scored.exit_code == 0, scored.stderr
        recalls.append(orjson.loads(out.read_bytes())["systems"][0]["docoie"]["recall"])
    # the JSON's second triple, (stop, Trains), is met by the same prediction: "stop" and
    # "Trains", all of its 2 words (recall 1 too)
    assert recalls == [1.0, 1.0]
    bad = tmp_path / "bad.json"
    bad.write_text('{"d": {"s": {"triple_gold": [{"sub": 1}]}}}')
    refused = cli("score", "--benchmark", "docoie", "--gold-file", bad, system)
    assert refused.exit_code == 2
    assert refused.stderr.startswith(f"benchie: {bad}: error: ")
    assert "['rel']: missing" in refused.stderr and "Traceback" not in refused.stderr


def test_a_gold_number_too_long_to_convert_is_named_with_its_file() -> None:
    """As for Re-OIE2016's and WiRe57's JSON: the file is named, not only Python's words."""
    with pytest.raises(metric.DocoieError, match=r"^gold.json: not JSON a reader takes: Exceeds"):
        metric.json_lines("gold.json", '{"d": ' + "9" * 5000 + "}")
