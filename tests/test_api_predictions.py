"""Predictions and LLM answers held in memory, scored against any benchmark through the API:
the CLI's numbers, report and signature, as for a file of the same predictions (the report's
``file`` is ``<memory>``), and no file written."""

from __future__ import annotations

import gzip
import json
import warnings
from pathlib import Path

import orjson
import pytest

from benchie_cli import api
from benchie_cli.errors import BenchieError
from tests.conftest import DATA, REPO, RunCli

ANSWERS = REPO / "examples" / "llm" / "answers.jsonl"


def _without_file(doc: dict[str, object]) -> dict[str, object]:
    out = json.loads(json.dumps(doc))
    for system in out["systems"]:
        system.pop("file")
        system.pop("name")
    return out


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.simplefilter("ignore", api.BenchieWarning)


def test_answers_in_memory_give_the_file_report(cli: RunCli) -> None:
    answers = {}
    for line in ANSWERS.read_text("utf-8").splitlines():
        doc = json.loads(line)
        answers[doc["sentence"]] = doc["output"]
    report = api.score_answers(answers)
    from_file = orjson.loads(cli("score", "--format", "json", str(ANSWERS)).stdout)
    assert _without_file(report.data) == _without_file(from_file)
    # The same bytes: the same answers serialise to the file's own lines.
    assert report.data["systems"][0]["sha256"] == from_file["systems"][0]["sha256"]
    assert report.data["systems"][0]["file"] == "<memory>"
    assert "input:llm-text@1" in report.signature
    assert report.data["systems"][0]["unparsed"]["fragments"] == 4


def _carb_triples() -> dict[str, list[tuple[str, str, str]]]:
    from benchie_cli.benchmarks.corpus import carb_texts

    data = gzip.decompress((DATA / "carb" / "openie4_output.txt.gz").read_bytes())
    out: dict[str, list[tuple[str, str, str]]] = {}
    for text, xs in carb_texts(data, "openie4", "openie4").items():
        for pred, args, _ in xs:
            if len(args) == 2 and all(a.strip() for a in (pred, *args)):
                out.setdefault(text, []).append((args[0], pred, args[1]))
    return out


@pytest.mark.parametrize("benchmark", ["carb", "oie2016"])
def test_predictions_in_memory_score_as_a_file_on_any_benchmark(
    cli: RunCli, tmp_path: Path, benchmark: str
) -> None:
    """Triples without confidences, on CaRB and OIE2016: the numbers of a CaRB-tab file of
    the same triples, each with the one confidence a file without any gets."""
    triples = _carb_triples()
    report = api.score_predictions(triples, benchmark=benchmark)
    tab = tmp_path / "system.carb"
    tab.write_text(
        "".join(f"{s}\t1.0\t{r}\t{a}\t{o}\n" for s, ts in triples.items() for a, r, o in ts),
        "utf-8",
    )
    res = cli(
        "score", "--benchmark", benchmark, "--input-format", "carb", "--format", "json", str(tab)
    )
    assert res.exit_code == 0, res.stderr
    (system,) = orjson.loads(res.stdout)["systems"]
    metric = report.data["metric"]
    assert report.numbers == system[metric]
    assert report.numbers.get("single_threshold") is True


def test_predictions_by_gold_id_on_benchie() -> None:
    """BenchIE's sentence 1 by its id: its two facts, as a tuple and as an object, and a
    triple that is no fact of it, as a list."""
    report = api.score_predictions(
        {
            "1": [
                ("He", "served as", "the first Prime Minister of Australia"),
                {"head": "He", "relation": "became", "tail": "a founding justice"},
                ["the High Court", "served as", "Australia"],
            ]
        },
        by="id",
    )
    # Worked out on the gold: both facts of the sentence are among its forms; the third
    # has every word in the sentence (not implicit) and is no fact of it.
    assert (report.numbers["tp"], report.numbers["fp"]) == (2, 1)
    assert report.data["systems"][0]["file"] == "<memory>"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: api.score_predictions({"x y": [("a", "b")]}), "tuple of str"),
        (lambda: api.score_predictions({"x y": "abc"}), "an iterable of triples"),
        (
            lambda: api.score_predictions({"x y": [("a", "b", "c")]}, benchmark="nope"),
            "unknown benchmark",
        ),
        (lambda: api.score_predictions({"": [("a", "b", "c")]}), "non-empty str"),
        (lambda: api.score_predictions({}), "nothing to score"),
        (lambda: api.score_answers({"x y": 3}), "a str or a list of str"),  # type: ignore[dict-item]
        (lambda: api.score_predictions({"x y": [("a", "b", "c")]}, by="row"), "'text' or 'id'"),
    ],
)
def test_bad_predictions_are_one_clear_error(call: object, message: str) -> None:
    with pytest.raises(BenchieError, match=message):
        call()  # type: ignore[operator]
