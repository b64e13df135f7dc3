"""A system whose extractions all have one confidence (or none: an LLM's output) has a
curve of one threshold: the original scorers score it as they do (parity), and the report,
the table and the suite say that its AUC is not a ranking signal. Files with confidences
that vary keep their report bytes (no such key)."""

from __future__ import annotations

import gzip
from pathlib import Path

import orjson
import pytest

from tests.conftest import DATA, RunCli

OPENIE4 = DATA / "carb" / "openie4_output.txt.gz"
NOTE = "its curve has a single threshold, so its AUC is not a ranking signal"


def _constant(tmp_path: Path) -> Path:
    """CaRB's OpenIE 4 output with every confidence 1.0."""
    lines = gzip.decompress(OPENIE4.read_bytes()).decode("utf-8").splitlines()
    out = tmp_path / "const.txt"
    out.write_text("".join("1.0\t" + line.split("\t", 1)[1] + "\n" for line in lines), "utf-8")
    return out


@pytest.mark.parametrize(
    ("args", "keys"),
    [
        (("--benchmark", "carb", "--metric", "carb,carb-ss"), ("carb", "carb-ss")),
        (("--benchmark", "oie2016"), ("oie2016",)),
    ],
)
def test_one_confidence_for_all_is_flagged_and_scored_as_the_original(
    cli: RunCli, tmp_path: Path, args: tuple[str, ...], keys: tuple[str, ...]
) -> None:
    const = _constant(tmp_path)
    res = cli("score", *args, "--input-format", "openie4", "--format", "json", str(const))
    assert res.exit_code == 0, res.stderr
    (system,) = orjson.loads(res.stdout)["systems"]
    for key in keys:
        assert system[key]["single_threshold"] is True
    table = cli("score", *args, "--input-format", "openie4", str(const))
    assert f"note: const: one confidence for every extraction (or none): {NOTE}" in table.stdout
    # The same file with its own confidences: no key, no note.
    plain = tmp_path / "openie4.txt"
    plain.write_bytes(gzip.decompress(OPENIE4.read_bytes()))
    res = cli("score", *args, "--input-format", "openie4", "--format", "json", str(plain))
    (system,) = orjson.loads(res.stdout)["systems"]
    assert all("single_threshold" not in system[key] for key in keys)
    assert NOTE not in cli("score", *args, "--input-format", "openie4", str(plain)).stdout


def test_carb_single_threshold_curve_has_one_point(cli: RunCli, tmp_path: Path) -> None:
    """CaRB's curve of one confidence is one point (its optimum), as CaRB's scorer has it."""
    res = cli(
        "score",
        "--benchmark",
        "carb",
        "--input-format",
        "openie4",
        "--format",
        "json",
        str(_constant(tmp_path)),
    )
    (system,) = orjson.loads(res.stdout)["systems"]
    assert system["carb"]["points"] == 1


def test_the_suite_says_it_once(cli: RunCli, tmp_path: Path) -> None:
    res = cli("score", "--suite", str(_constant(tmp_path)))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.count("AUC: one confidence for every extraction (or none)") == 1
    doc = orjson.loads(cli("score", "--suite", "--format", "json", str(_constant(tmp_path))).stdout)
    flagged = {r["metric"] for r in doc["rows"] if r.get(r["metric"], {}).get("single_threshold")}
    assert {"carb", "carb-ss", "oie2016"} <= flagged


def test_benchie_confidences_all_equal_are_flagged(cli: RunCli, tmp_path: Path) -> None:
    from tests.conftest import example

    lines = example("en", "clausie").read_text("utf-8").splitlines()
    const = tmp_path / "c.tsv"
    const.write_text(
        "#benchie-tsv confidence\n" + "".join(f"{line}\t0.5\n" for line in lines if line), "utf-8"
    )
    doc = orjson.loads(cli("score", "--lang", "en", "--format", "json", str(const)).stdout)
    curve = doc["systems"][0]["confidence"]
    assert curve["single_threshold"] is True and len(curve["curve"]) == 1
    assert NOTE in cli("score", "--lang", "en", str(const)).stdout
