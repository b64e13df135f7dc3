"""Every benchmark reads every format (docs/native-formats.md): the same extractions written
in each format a system or an LLM pipeline writes score the same numbers on every benchmark,
whichever reader reads them (its original scorer's, CaRB's or benchie's, met by sentence
text). The extractions are CaRB's OpenIE 4 output, triples only, confidences of two
decimals (what every format here can hold exactly)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from tests.conftest import DATA, RunCli

Triple = tuple[str, str, str, str, float]  # sentence, subject, relation, object, confidence


def _triples() -> list[Triple]:
    from benchie_cli.benchmarks.corpus import carb_texts

    data = gzip.decompress((DATA / "carb" / "openie4_output.txt.gz").read_bytes())
    out = []
    for text, xs in carb_texts(data, "openie4", "openie4").items():
        for pred, args, conf in xs:
            if (
                len(args) == 2
                and all(a.strip() for a in (pred, *args))
                and ";" not in "".join(args)
            ):
                out.append((text, args[0], pred, args[1], round(conf, 2)))
    return out


def _carb(ts: list[Triple]) -> str:
    return "".join(f"{s}\t{c}\t{r}\t{a}\t{o}\n" for s, a, r, o, c in ts)


def _grouped(ts: list[Triple]) -> dict[str, list[Triple]]:
    out: dict[str, list[Triple]] = {}
    for t in ts:
        out.setdefault(t[0], []).append(t)
    return out


def _json(ts: list[Triple]) -> str:
    return "".join(
        json.dumps(
            {
                "text": s,
                "triples": [
                    {"head": a, "relation": r, "tail": o, "score": c} for _, a, r, o, c in xs
                ],
            }
        )
        + "\n"
        for s, xs in _grouped(ts).items()
    )


def _jsonl(ts: list[Triple]) -> str:
    return "".join(
        json.dumps(
            {
                "sentence": s,
                "extractions": [
                    {"subject": a, "relation": r, "object": o, "confidence": c}
                    for _, a, r, o, c in xs
                ],
            }
        )
        + "\n"
        for s, xs in _grouped(ts).items()
    )


def _allennlp(ts: list[Triple]) -> str:
    return "".join(
        f"{s}\t<arg1> {a} </arg1> <rel> {r} </rel> <arg2> {o} </arg2>\t{c}\n"
        for s, a, r, o, c in ts
    )


def _openie6(ts: list[Triple]) -> str:
    return "".join(
        s + "\n" + "".join(f"{c:.2f}: ({a}; {r}; {o})\n" for _, a, r, o, c in xs) + "\n"
        for s, xs in _grouped(ts).items()
    )


def _ollie(ts: list[Triple]) -> str:
    """OLLIE's plain layout (three decimals: OpenIE6 writes two), which no CaRB reader reads."""
    return "".join(
        s + "\n" + "".join(f"{c:.3f}: ({a}; {r}; {o})\n" for _, a, r, o, c in xs) + "\n"
        for s, xs in _grouped(ts).items()
    )


WRITERS: dict[str, Callable[[list[Triple]], str]] = {
    "ollie": _ollie,
    "json": _json,
    "jsonl": _jsonl,
    "allennlp": _allennlp,
    "openie6": _openie6,
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    ts = _triples()
    root = tmp_path_factory.mktemp("formats")
    out = {"carb": root / "system.carb"}
    out["carb"].write_text(_carb(ts), "utf-8")
    for fmt, write in WRITERS.items():
        out[fmt] = root / f"system.{fmt}"
        out[fmt].write_text(write(ts), "utf-8")
    return out


def _numbers(cli: RunCli, args: tuple[str, ...], path: Path, fmt: str) -> dict[str, object]:
    res = cli("score", *args, "--input-format", fmt, "--format", "json", str(path))
    assert res.exit_code == 0, res.stderr
    (system,) = orjson.loads(res.stdout)["systems"]
    return {k: v for k, v in system.items() if k not in ("file", "sha256", "lines", "name")}


@pytest.mark.parametrize("fmt", list(WRITERS))
@pytest.mark.parametrize(
    "args",
    [("--benchmark", "carb", "--metric", "carb,carb-ss"), ("--benchmark", "oie2016")],
    ids=["carb", "oie2016"],
)
def test_the_same_extractions_in_every_format_score_the_same(
    cli: RunCli, files: dict[str, Path], args: tuple[str, ...], fmt: str
) -> None:
    assert _numbers(cli, args, files[fmt], fmt) == _numbers(cli, args, files["carb"], "carb")


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_detection_finds_each_format(cli: RunCli, files: dict[str, Path], fmt: str) -> None:
    from benchie_cli.inputs.native import detect

    assert detect(str(files[fmt])) == fmt
