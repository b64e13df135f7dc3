"""``--retokenize`` on every benchmark: an LLM writes ``Australia's`` where the gold has
``Australia 's``; the slots of a file read by its sentences' text are re-split onto that
sentence's tokens, the report and its signature say so, and ``verify`` re-derives it. A
format an original scorer reads with its own reader, which takes every slot as given, is
refused rather than silently read otherwise."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import orjson
import pytest

from tests.conftest import DATA, RunCli


def _detokenised(tmp_path: Path) -> Path:
    """CaRB's gold tuples of 40 test sentences with a clitic or a comma, as an LLM would
    write them (no space before ``'s``, ``n't``, ``,``, ``.``), as llm-text answers."""
    lines = gzip.decompress((DATA / "carb" / "gold_test.tsv.gz").read_bytes()).decode().splitlines()
    by: dict[str, list[list[str]]] = {}
    for line in lines:
        cols = line.split("\t")
        by.setdefault(cols[0], []).append(cols)
    glue = lambda x: re.sub(r" ('s|n't|,|\.)", r"\1", x)  # noqa: E731
    out = []
    for sentence, rows in by.items():
        if " 's" in sentence or " n't" in sentence:
            answer = "\n".join(
                f"({glue(r[2])}; {glue(r[1])}; {glue(' '.join(r[3:]))})" for r in rows
            )
            out.append(json.dumps({"sentence": sentence, "output": answer}) + "\n")
        if len(out) == 40:
            break
    path = tmp_path / "detok.jsonl"
    path.write_text("".join(out), "utf-8")
    return path


def test_retokenize_recovers_carb_matches_and_is_signed(cli: RunCli, tmp_path: Path) -> None:
    answers = _detokenised(tmp_path)
    plain = orjson.loads(
        cli("score", "--benchmark", "carb", "--format", "json", str(answers)).stdout
    )
    out = tmp_path / "r.json"
    res = cli("score", "--benchmark", "carb", "--retokenize", "-o", str(out), str(answers))
    assert res.exit_code == 0, res.stderr
    doc = orjson.loads(out.read_bytes())
    before, after = plain["systems"][0]["carb"], doc["systems"][0]["carb"]
    assert after["precision"] > before["precision"] and after["recall"] > before["recall"]
    assert "|retokenize|" in doc["signature"] and doc["options"]["retokenize"] is True
    assert "retokenize" not in plain["options"] and "|retokenize" not in plain["signature"]
    assert cli("verify", str(out)).exit_code == 0


@pytest.mark.parametrize(
    ("args", "path"),
    [
        (
            ("--benchmark", "oie2016", "--input-format", "openie4"),
            DATA / "oie2016" / "openie4_output.txt.gz",
        ),
        (("--benchmark", "carb", "--input-format", "benchie"), None),
    ],
)
def test_an_original_reader_refuses_retokenize(
    cli: RunCli, tmp_path: Path, args: tuple[str, ...], path: Path | None
) -> None:
    if path is None:
        path = tmp_path / "s.tsv"
        path.write_text("1\tHe\tserved as\tthe first Prime Minister\n", "utf-8")
    res = cli("score", *args, "--retokenize", str(path))
    assert res.exit_code == 2
    assert (
        "--retokenize does not apply to" in res.stderr and "takes every slot as given" in res.stderr
    )
