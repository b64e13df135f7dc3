"""The same checks over every benchmark of the registry (the model: evaluate's
``test_metric_common``): a benchmark is tested by being registered.

For each benchmark, a case says where its gold is (the shipped store, or a stand-in of an
external benchmark's published file, added as a user adds it) and holds a small submission
whose numbers are worked out by hand below. Every benchmark then must: verify its gold
(``gold verify --benchmark``), score the submission to those numbers, name its benchmark,
version and gold hash in the signature, re-derive the report with ``verify``, and refuse a
file with one bad line in one error line (exit 2), writing nothing. A registry entry without
a case fails :func:`test_every_benchmark_has_a_case`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from benchie_cli.errors import ExitCode
from benchie_cli.registry import BENCHMARKS
from tests.benchmarks.docoie.test_docoie import add_stand_ins
from tests.benchmarks.lsoie.test_lsoie_add import add_stand_in
from tests.benchmarks.test_benchmark_add import NAMES, STAND_INS, WIRE, pin, stand_in  # noqa: F401 (fixtures)
from tests.conftest import GOLD_DIR, RunCli

CARB_TEST = GOLD_DIR / "carb" / "1.0.0" / "test" / "carb_test.tsv"
OIE2016_TEST = GOLD_DIR / "oie2016" / "2.0.0" / "test" / "test.oie"
OIE2016_2018_TEST = GOLD_DIR / "oie2016-2018" / "1.0.0" / "test" / "test.oie.orig"


def _first_sentence_as_carb_tab(gold: Path) -> tuple[str, int, int]:
    """The gold tuples of the file's first sentence as CaRB tab lines (confidence 1.0),
    how many they are, and how many tuples the file has: a system that outputs exactly
    those has precision 1 and recall k / N under any metric that matches a tuple to itself."""
    lines = gold.read_text("utf-8").splitlines()
    first = lines[0].split("\t")[0]
    mine = [line.split("\t") for line in lines if line.split("\t")[0] == first]
    text = "".join("\t".join([cols[0], "1.0", *cols[1:]]) + "\n" for cols in mine)
    return text, len(mine), len(lines)


def _missed_squares(gold: Path) -> int:
    """The sum of n * n over the gold's sentences but the first (n: its tuples): what the
    scorer of before July 2019 counts for sentences without predictions."""
    counts: dict[str, int] = {}
    for line in gold.read_text("utf-8").splitlines():
        text = line.split("\t")[0]
        counts[text] = counts.get(text, 0) + 1
    first = next(iter(counts))
    return sum(n * n for text, n in counts.items() if text != first)


def _prf(p: float, r: float) -> dict[str, float]:
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r)}


@dataclass
class Case:
    """One benchmark's fixture: its submission (file name, text), the score arguments, the
    numbers worked out by hand, and a submission with one bad line."""

    file: str
    text: str
    args: tuple[str, ...]
    expected: dict[str, float]
    bad: str
    #: The report's key of the numbers (None: BenchIE's, at the system's top level).
    key: str | None = None
    #: Whether the gold is an external benchmark's stand-in (added in a gold dir of the test).
    external: bool = False
    #: The stand-in document, when not test_benchmark_add's.
    document: object = None
    #: Adds its stand-ins itself, ``(cli, root, tmp_path, monkeypatch)``: a benchmark whose
    #: published files are not test_benchmark_add's JSON documents (DocOIE's).
    adds: Callable[[RunCli, Path, Path, pytest.MonkeyPatch], None] | None = None
    #: Writes a stand-in of another format and pins it (``tmp_path``, ``monkeypatch``):
    #: the file to add.
    add: Callable[[Path, pytest.MonkeyPatch], Path] | None = None
    extra: dict[str, object] = field(default_factory=dict)


def _cases() -> dict[str, Case]:
    carb_text, carb_k, carb_n = _first_sentence_as_carb_tab(CARB_TEST)
    oie_text, oie_k, oie_n = _first_sentence_as_carb_tab(OIE2016_TEST)
    old_text, old_k, _ = _first_sentence_as_carb_tab(OIE2016_2018_TEST)
    old_counted = old_k + _missed_squares(OIE2016_2018_TEST)
    return {
        # Sentence 1's synset 1 ("He --> served as --> [the] [first] Prime Minister [of
        # Australia]") matched once, and one line of the sentence's own words (explicit, so
        # scored) that no synset lists: TP 1, FP 1, and the other 1,349 of the English
        # gold's 1,350 synsets missed.
        "benchie": Case(
            "en.tsv",
            "1\tHe\tserved as\tPrime Minister\n1\tHe\tbecame\tPrime Minister\n",
            ("--lang", "en"),
            _prf(1 / 2, 1 / 1350),
            "1\tHe\tserved as\n",
        ),
        # Sentence 1's two gold tuples, exactly: every predicted token matches, every gold
        # token is matched, at the one confidence: precision 1, recall 2 of CaRB's 2,715 test
        # tuples (the curve's one point, so the AUC too).
        "carb": Case(
            "carb.txt",
            carb_text,
            ("--benchmark", "carb", "--input-format", "carb"),
            {**_prf(1.0, carb_k / carb_n), "auc": carb_k / carb_n},
            carb_text.replace("\t1.0\t", "\t1,0\t", 1),
            key="carb",
            extra={"k": carb_k, "n": carb_n},
        ),
        # OIE2016's test split: its first sentence's three extractions, as CaRB tab lines,
        # each matching itself: precision 1, recall 3 of the split's 1,730.
        "oie2016": Case(
            "oie.txt",
            oie_text,
            ("--benchmark", "oie2016", "--split", "test", "--input-format", "carb"),
            {**_prf(1.0, oie_k / oie_n), "auc": oie_k / oie_n},
            oie_text.replace("\t1.0\t", "\tone\t", 1),
            key="oie2016",
            extra={"k": oie_k, "n": oie_n},
        ),
        # The 2018 scorer's gold (its format has no base-verb column): the first sentence's
        # three extractions, each taking its own copy; the 602 sentences without predictions
        # count n * n gold extractions each, so recall is 3 of 3 + 7,657.
        "oie2016-2018": Case(
            "oie18.txt",
            old_text,
            ("--metric", "oie2016-2018", "--input-format", "carb"),
            {**_prf(1.0, old_k / old_counted), "auc": old_k / old_counted},
            old_text.replace("\t1.0\t", "\tone\t", 1),
            key="oie2016-2018",
            extra={"k": old_k, "n": old_counted},
        ),
        # The stand-in's "likes(Ann, Bob)", exactly: one of its four gold tuples.
        "reoie2016": Case(
            "reoie.txt",
            "Ann likes Bob , a teacher .\t1.0\tlikes\tAnn\tBob\n",
            ("--benchmark", "reoie2016", "--input-format", "carb"),
            _prf(1.0, 1 / 4),
            "Ann likes Bob , a teacher .\tone\tlikes\tAnn\tBob\n",
            key="reoie2016",
            external=True,
        ),
        # The stand-in's first tuple of "A 1" ("Tokyo | is the capital of | Japan"), exactly:
        # the pair's precision and recall are 1 (every word matched), and the corpus's are
        # sums over predictions (1) and over reference tuples (3): docs/wire57.md.
        "wire57": Case(
            "export.json",
            json.dumps(
                {
                    "A 1": [
                        {
                            "arg1": "Tokyo",
                            "rel": "is the capital of",
                            "arg2": "Japan",
                            "extractor": "mine",
                        }
                    ],
                    "B 1": [],
                }
            ),
            ("--benchmark", "wire57"),
            _prf(1.0, 1 / 3),
            '{"A 1": [{"arg1": "Tokyo", "rel": 3}]}',
            key="wire57",
            external=True,
            # WiRe57's scorer crashes on a reference sentence without tuples: "A 2" left out.
            document={doc: [s for s in sents if s["tuples"]] for doc, sents in WIRE.items()},
        ),
        # The healthcare stand-in's "delivers(The pump, insulin)", exactly, at one
        # confidence: one of its four gold tuples (the curve's one point, so the AUC too).
        "docoie": Case(
            "docie.txt",
            "The pump delivers insulin .\t<arg1> The pump </arg1> <rel> delivers </rel> "
            "<arg2> insulin </arg2>\t-0.5\n",
            ("--benchmark", "docoie", "--input-format", "allennlp"),
            {**_prf(1.0, 1 / 4), "auc": 1 / 4},
            "The pump delivers insulin .\t<arg1> The pump </arg1> <rel> delivers </rel>\tone\n",
            key="docoie",
            external=True,
            adds=add_stand_ins,
        ),
        # The stand-in's "Birds sing ." (two identical gold lines) found once: matching is
        # one to one, so 1 of 8 (its 6 tuples, the two of "Fish swim fast ." that no line
        # predicts counting 2 * 2); one point, so no AUC (pr_plot's needs two).
        "lsoie": Case(
            "lsoie.txt",
            "Birds sing .\t0.9\tsing\tBirds\n",
            ("--benchmark", "lsoie", "--input-format", "carb"),
            {**_prf(1.0, 1 / 8), "auc": 0.0},
            "Birds sing .\tone\tsing\tBirds\n",
            key="lsoie",
            external=True,
            add=add_stand_in,
        ),
    }


CASES = _cases()


def test_every_benchmark_has_a_case() -> None:
    assert set(CASES) == set(BENCHMARKS)


@pytest.fixture
def gold_root(
    request: pytest.FixtureRequest,
    cli: RunCli,
    tmp_path: Path,
    stand_in: Callable[[str], tuple[Path, bytes]],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> Path:
    """The gold directory of the case: the repository's store, or one the test adds the
    external benchmark's stand-in to, as ``benchie benchmark add`` does."""
    name = request.param
    if not CASES[name].external:
        return GOLD_DIR
    root = tmp_path / "gold"
    root.mkdir()
    if CASES[name].adds is not None:
        CASES[name].adds(cli, root, tmp_path, monkeypatch)
        return root
    add = CASES[name].add
    if add is not None:
        src = add(tmp_path, monkeypatch)
        assert cli("benchmark", "add", name, src, "--gold-dir", root).exit_code == 0
        return root
    document = CASES[name].document
    if document is not None:
        _, sentences, tuples, refused = STAND_INS[name]
        monkeypatch.setitem(STAND_INS, name, (document, sentences - 1, tuples, refused))
    src, _ = stand_in(name)
    assert cli("benchmark", "add", name, src, "--gold-dir", root).exit_code == 0
    return root


def _score(cli: RunCli, tmp_path: Path, name: str, root: Path) -> tuple[Path, Path]:
    case = CASES[name]
    submission = tmp_path / case.file
    submission.write_text(case.text, "utf-8")
    report = tmp_path / "report.json"
    result = cli("score", *case.args, "--gold-dir", root, submission, "-o", report)
    assert result.exit_code == 0, result.stderr
    return submission, report


@pytest.mark.parametrize("gold_root", list(CASES), indirect=True)
def test_its_gold_verifies(cli: RunCli, gold_root: Path, request: pytest.FixtureRequest) -> None:
    name = request.node.callspec.params["gold_root"]
    result = cli("gold", "verify", "--benchmark", name, "--gold-dir", gold_root)
    assert result.exit_code == 0, result.stdout + result.stderr


@pytest.mark.parametrize("gold_root", list(CASES), indirect=True)
def test_it_scores_the_hand_worked_fixture_and_verify_rederives_it(
    cli: RunCli, tmp_path: Path, gold_root: Path, request: pytest.FixtureRequest
) -> None:
    name = request.node.callspec.params["gold_root"]
    case = CASES[name]
    submission, report_path = _score(cli, tmp_path, name, gold_root)
    report = json.loads(report_path.read_text("utf-8"))
    (system,) = report["systems"]
    numbers = system if case.key is None else system[case.key]
    for key, value in case.expected.items():
        assert numbers[key] == pytest.approx(value, rel=1e-12), (name, key)
    signature = report["signature"]
    gold = report["gold"]
    sha256 = gold["files"][0]["sha256"] if "files" in gold else gold["sha256"]
    assert name in signature and f"gold:{gold['version']}@{sha256[:12]}" in signature
    verified = cli("verify", "--gold-dir", gold_root, report_path, submission)
    assert verified.exit_code == 0, verified.stdout + verified.stderr


@pytest.mark.parametrize("gold_root", list(CASES), indirect=True)
def test_a_bad_line_is_one_error_and_nothing_written(
    cli: RunCli, tmp_path: Path, gold_root: Path, request: pytest.FixtureRequest
) -> None:
    name = request.node.callspec.params["gold_root"]
    case = CASES[name]
    bad = tmp_path / ("bad-" + case.file)
    bad.write_text(case.bad, "utf-8")
    report = tmp_path / "report.json"
    result = cli("score", *case.args, "--gold-dir", gold_root, bad, "-o", report)
    assert result.exit_code == ExitCode.USAGE, (name, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith(f"benchie: {bad}"), (name, result.stderr)
    assert "error: " in lines[-1]
    assert not report.exists()


@pytest.mark.parametrize("name", list(BENCHMARKS))
def test_the_registry_names_the_formats_its_package_reads(name: str) -> None:
    """What the registry says a benchmark reads is what its package reads: its own scorer's
    readers first, then the formats CaRB's readers read for it (the tab-keyed ones), then
    every other format by benchie's readers, met by sentence text; a
    format it names that no reader reads, or one a reader reads that it does not name,
    would make `--benchmark NAME` refuse a file it can score, or read one it cannot."""
    from benchie_cli.benchmarks import corpus
    from benchie_cli.inputs.formats import BENCHIE_TSV, NATIVE_FORMATS
    from benchie_cli.registry import implementation

    module = implementation(name)
    formats = BENCHMARKS[name].formats
    assert len(set(formats)) == len(formats), formats
    if BENCHMARKS[name].by_language:  # BenchIE's TSV and every native output, aligned
        assert formats == (BENCHIE_TSV, *NATIVE_FORMATS)
    elif hasattr(module, "CORPUS"):  # its original scorer's readers, CaRB's, then benchie's
        own = module.CORPUS.own
        carbs = tuple(f for f in corpus.CARB_READ if f not in own)
        assert formats == (*own, *carbs, *(f for f in NATIVE_FORMATS if f not in (*own, *carbs)))
    else:  # CaRB: BenchIE TSV by sentence number, CaRB's own readers, then benchie's
        own = (BENCHIE_TSV, *module.CARB_READERS)
        assert formats == (*own, *(f for f in NATIVE_FORMATS if f not in own))
